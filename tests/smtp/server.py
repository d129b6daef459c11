"""A real SMTP server on loopback for the tests (aiosmtpd, installed by tests/run.sh).

    server.py --security none|starttls|tls --dir DIR [--user U --password P] [--cert C --key K]

Listens on 127.0.0.1, on a port the OS chooses, and prints "PORT <n>" once it listens. With a
user, it offers AUTH PLAIN and LOGIN and takes mail only after a sign-in with that user and
password (535 otherwise); `starttls` requires STARTTLS before anything else, `tls` is TLS from
the first byte. Each message it takes is written to DIR as <n>.json: the envelope, who signed in,
whether the connection was encrypted, and the message as a mail reader sees it (From, To, Cc,
Subject, the text and HTML bodies, and each attachment's name, type, size and first bytes).
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def summary(envelope, session, encrypted):
    message = email.message_from_bytes(envelope.content, policy=email.policy.default)
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    attachments = []
    for part in message.iter_attachments():
        content = part.get_payload(decode=True) or b""
        attachments.append({
            "name": part.get_filename(),
            "content_type": part.get_content_type(),
            "size": len(content),
            "starts": content[:5].decode("latin-1"),
        })
    return {
        "mail_from": envelope.mail_from,
        "rcpt_tos": envelope.rcpt_tos,
        "auth_user": session.auth_data,
        "encrypted": encrypted,
        "from": message["From"],
        "to": message["To"],
        "cc": message["Cc"],
        "subject": message["Subject"],
        "message_id": message["Message-ID"],
        "text": text.get_content() if text else None,
        "html": html.get_content() if html else None,
        "attachments": attachments,
    }


class Keeper:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        path = os.path.join(self.folder, f"{self.count:04}.json")
        with open(path + ".part", "w") as f:
            json.dump(summary(envelope, session, server.transport.get_extra_info("ssl_object") is not None), f)
        os.replace(path + ".part", path)
        return "250 OK kept"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--security", choices=["none", "starttls", "tls"], required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--cert")
    p.add_argument("--key")
    a = p.parse_args()

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and (
            auth_data.login.decode() == a.user and auth_data.password.decode() == a.password
        )
        return AuthResult(success=ok, handled=False, auth_data=a.user if ok else None)

    context = None
    if a.security != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(a.cert, a.key)

    keeper = Keeper(a.dir)

    def protocol():
        return SMTP(
            keeper,
            hostname="mail.test",
            authenticator=authenticator if a.user else None,
            auth_required=bool(a.user),
            auth_require_tls=a.security == "starttls",
            tls_context=context if a.security == "starttls" else None,
            require_starttls=a.security == "starttls",
        )

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(
        loop.create_server(protocol, "127.0.0.1", 0, ssl=context if a.security == "tls" else None)
    )
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(main())
