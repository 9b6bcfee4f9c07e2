//! For tests: a webhook receiver (`test-support/webhook_receiver.py`) on a free loopback
//! port that checks each delivery's signature as the README tells receivers to, records it,
//! and answers as its current mode says.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct TestWebhookReceiver {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl TestWebhookReceiver {
    /// Starts the receiver and waits until it listens; it answers 204 until told otherwise.
    pub fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir = std::env::temp_dir().join(format!("webhooks-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder for the received deliveries");
        let mut child = Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/test-support/webhook_receiver.py"
            ))
            .arg(port.to_string())
            .arg(&dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3");
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            let _ = BufReader::new(stdout).read_line(&mut line);
        }
        assert_eq!(line.trim(), "READY", "the webhook receiver did not start");
        Self { child, port, dir }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The secrets deliveries are checked against, by index in `verified_with`.
    pub fn trust(&self, secrets: &[&str]) {
        std::fs::write(self.dir.join("secrets"), secrets.join("\n")).expect("secrets file");
    }

    /// ok, fail, retry-after, gone, slow, huge or redirect.
    pub fn answer(&self, mode: &str) {
        std::fs::write(self.dir.join("mode"), mode).expect("mode file");
    }

    /// What arrived so far, in order: `path`, `headers` (lower-case names), `verified_with`
    /// (the indices of the trusted secrets whose signature matched) and the JSON `body`.
    pub fn received(&self) -> Vec<serde_json::Value> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.join("received"))
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|f| f.extension().is_some_and(|e| e == "json"));
        files.sort();
        files
            .iter()
            .filter_map(|f| std::fs::read(f).ok())
            .filter_map(|bytes| serde_json::from_slice(&bytes).ok())
            .collect()
    }

    /// Checks every delivery so far as a receiver using the published tools would: its
    /// signature with `secret` by the Standard Webhooks library, its body against
    /// services/outbox/webhook-payload.schema.json (`test-support/check_webhooks.py`, with the
    /// Python of `.tools/webhooks` that `make webhook-tools` makes); panics naming each problem.
    pub fn check_with_published_tools(&self, secret: &str) {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let python = format!("{root}/.tools/webhooks/bin/python");
        let output = Command::new(&python)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/test-support/check_webhooks.py"
            ))
            .arg(format!(
                "{root}/services/outbox/webhook-payload.schema.json"
            ))
            .arg(self.dir.join("received"))
            .arg(secret)
            .output()
            .unwrap_or_else(|e| panic!("{python}: {e} (run `make webhook-tools`)"));
        assert!(
            output.status.success(),
            "deliveries fail the published tools:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Waits (polling, up to 20 s) until `n` deliveries arrived, and returns them.
    pub async fn wait_for(&self, n: usize) -> Vec<serde_json::Value> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let received = self.received();
            if received.len() >= n || std::time::Instant::now() > deadline {
                return received;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

impl Drop for TestWebhookReceiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
