//! A small W3C WebDriver client for the browser tests: Debian's chromedriver driving Debian's
//! Chromium, headless, with a fresh profile per session.

use base64::Engine;
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where Debian puts the browser and its driver.
pub fn browser_paths() -> Option<(PathBuf, PathBuf)> {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())?;
    let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())?;
    Some((chromium, driver))
}

/// A running chromedriver.
pub struct Driver {
    child: Child,
    base: String,
    chromium: PathBuf,
}

impl Driver {
    pub fn start() -> Option<Driver> {
        let Some((chromium, driver)) = browser_paths() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but Chromium or chromedriver is missing: run tests/run.sh"
            );
            eprintln!("browser tests skipped: install chromium and chromium-driver (tests/run.sh does)");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while super::http_call("GET", &format!("{base}/status"), &[], None, 2).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(Driver {
            child,
            base,
            chromium,
        })
    }

    /// A new browser session with an empty profile (no cookies) at the given window size.
    pub fn session(&self, width: u32, height: u32) -> Session {
        self.session_with(width, height, json!({}))
    }

    /// A session that Chromium's mobile emulation makes a phone `width` CSS pixels wide (touch,
    /// a device pixel ratio of 3, a phone's user agent).
    pub fn phone_session(&self, width: u32, height: u32) -> Session {
        self.session_with(
            width,
            height,
            json!({ "mobileEmulation": { "deviceMetrics": { "width": width, "height": height, "pixelRatio": 3.0, "touch": true },
                    "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36" } }),
        )
    }

    fn session_with(&self, width: u32, height: u32, chrome_options: Value) -> Session {
        let profile = tempfile::TempDir::new().unwrap();
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let mut options = json!({ "binary": self.chromium, "args": args });
        if let (Some(all), Some(more)) = (options.as_object_mut(), chrome_options.as_object()) {
            all.extend(more.clone());
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let reply = post(&format!("{}/session", self.base), &caps);
        let id = reply["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {reply}"))
            .to_string();
        Session {
            base: format!("{}/session/{id}", self.base),
            _profile: profile,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(url: &str, body: &Value) -> Value {
    let body = body.to_string();
    let reply = super::http_call(
        "POST",
        url,
        &[("Content-Type", "application/json")],
        Some(body.as_bytes()),
        60,
    )
    .unwrap();
    serde_json::from_slice::<Value>(&reply.body).unwrap()["value"].clone()
}

fn get(url: &str) -> Value {
    let reply = super::http_call("GET", url, &[], None, 60).unwrap();
    serde_json::from_slice::<Value>(&reply.body).unwrap()["value"].clone()
}

/// How long a step waits for the page: generous, since a 2-core CI machine runs the browser
/// tests side by side; a passing step waits only as long as the page takes.
const WAIT: Duration = Duration::from_secs(20);

/// One browser window.
pub struct Session {
    base: String,
    _profile: tempfile::TempDir,
}

/// An element found on the page.
pub struct Element<'a> {
    session: &'a Session,
    id: String,
}

impl Session {
    pub fn goto(&self, url: &str) {
        post(&format!("{}/url", self.base), &json!({ "url": url }));
    }

    pub fn find_all(&self, css: &str) -> Vec<Element<'_>> {
        self.find_with("css selector", css)
    }

    /// How many elements match `css` now.
    pub fn count(&self, css: &str) -> usize {
        self.find_all(css).len()
    }

    /// The texts of every element matching `css`, spaces collapsed.
    pub fn texts(&self, css: &str) -> Value {
        self.script(
            "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent.replace(/\\s+/g, ' ').trim());",
            json!([css]),
        )
    }

    fn find_with(&self, using: &str, value: &str) -> Vec<Element<'_>> {
        let found = post(
            &format!("{}/elements", self.base),
            &json!({ "using": using, "value": value }),
        );
        found
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| Element {
                        session: self,
                        id: e[ELEMENT_KEY].as_str().unwrap().into(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits up to `WAIT` for an element matching `css`.
    pub fn wait(&self, css: &str) -> Element<'_> {
        self.wait_until(css, |_| true)
    }

    /// Waits up to `WAIT` for an element matching `css` whose text contains `text`.
    pub fn wait_text(&self, css: &str, text: &str) -> Element<'_> {
        self.wait_until(css, |e| e.text().contains(text))
    }

    fn wait_until(&self, css: &str, ok: impl Fn(&Element<'_>) -> bool) -> Element<'_> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(found) = self.find_all(css).into_iter().find(|e| ok(e)) {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "no element {css} on {} in 10 s; form controls: {}; page text: {}",
                self.url(),
                self.controls(),
                self.page_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for `<main data-page=NAME>`.
    pub fn wait_page(&self, name: &str) {
        self.wait(&format!("main[data-page='{name}']"));
    }

    /// Clicks the button reading `text` once it shows and is enabled (a button disabled while a
    /// save is under way would swallow the click).
    pub fn click_button(&self, text: &str) {
        let xpath = format!("//button[normalize-space()='{text}']");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(button) = self
                .find_with("xpath", &xpath)
                .into_iter()
                .find(|b| b.displayed() && b.enabled())
            {
                button.click();
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no button '{text}' on {}; page text: {}",
                self.url(),
                self.page_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clears the input `name` and types `value` into it.
    pub fn fill(&self, name: &str, value: &str) {
        let input = self.wait(&format!("[name='{name}']"));
        input.clear();
        input.type_text(value);
    }

    pub fn script(&self, script: &str, args: Value) -> Value {
        post(
            &format!("{}/execute/sync", self.base),
            &json!({ "script": script, "args": args }),
        )
    }

    /// Runs an async script; it ends by calling `arguments[arguments.length - 1](result)`.
    pub fn script_async(&self, script: &str, args: Value) -> Value {
        post(
            &format!("{}/execute/async", self.base),
            &json!({ "script": script, "args": args }),
        )
    }

    /// The text of the open alert or confirm box, if one is open.
    pub fn alert_text(&self) -> Option<String> {
        let reply = super::http_call("GET", &format!("{}/alert/text", self.base), &[], None, 60).unwrap();
        (reply.status == 200)
            .then(|| {
                serde_json::from_slice::<Value>(&reply.body).unwrap()["value"]
                    .as_str()
                    .map(str::to_string)
            })
            .flatten()
    }

    /// Answers the open confirm box: OK (`accept`) or Cancel.
    pub fn answer_alert(&self, accept: bool) {
        let action = if accept { "accept" } else { "dismiss" };
        post(&format!("{}/alert/{action}", self.base), &json!({}));
    }

    pub fn url(&self) -> String {
        get(&format!("{}/url", self.base))
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Every named form control with its value (`name=value`, one per control), for a failure
    /// message: what the page holds, which its text does not show (a select's choice).
    pub fn controls(&self) -> String {
        self.script(
            "return [...document.querySelectorAll('input[name], select[name], textarea[name]')]
               .map(e => `${e.name}=${e.value}`).join(', ')",
            json!([]),
        )
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    pub fn page_text(&self) -> String {
        self.script("return document.body ? document.body.innerText : ''", json!([]))
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Saves a PNG of the window.
    pub fn screenshot(&self, path: &Path) {
        let data = get(&format!("{}/screenshot", self.base));
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }

    pub fn set_window(&self, width: u32, height: u32) {
        post(
            &format!("{}/window/rect", self.base),
            &json!({ "width": width, "height": height }),
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = super::http_call("DELETE", &self.base, &[], None, 10);
    }
}

impl Element<'_> {
    fn url(&self, action: &str) -> String {
        format!("{}/element/{}/{action}", self.session.base, self.id)
    }
    /// Scrolls the element to the middle of the window (clear of sticky bars), then clicks;
    /// a WebDriver error (e.g. the click was intercepted) is retried once, then fails the test.
    pub fn click(&self) {
        let element = json!({ ELEMENT_KEY: self.id });
        for attempt in 0..2 {
            self.session.script(
                "arguments[0].scrollIntoView({ block: 'center' })",
                json!([element]),
            );
            let reply = post(&self.url("click"), &json!({}));
            match reply.get("error") {
                None => return,
                Some(e) if attempt == 0 => {
                    eprintln!("click retried after: {e}");
                    std::thread::sleep(Duration::from_millis(300));
                }
                Some(e) => panic!("click failed: {e}: {}", reply["message"]),
            }
        }
    }
    pub fn clear(&self) {
        post(&self.url("clear"), &json!({}));
    }
    pub fn type_text(&self, text: &str) {
        post(&self.url("value"), &json!({ "text": text }));
    }
    pub fn text(&self) -> String {
        get(&self.url("text")).as_str().unwrap_or("").to_string()
    }
    pub fn displayed(&self) -> bool {
        get(&self.url("displayed")).as_bool().unwrap_or(false)
    }
    pub fn enabled(&self) -> bool {
        get(&self.url("enabled")).as_bool().unwrap_or(false)
    }
    pub fn attribute(&self, name: &str) -> Option<String> {
        get(&self.url(&format!("attribute/{name}")))
            .as_str()
            .map(str::to_string)
    }
}
