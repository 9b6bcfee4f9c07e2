//! For tests: a real SMTP server (aiosmtpd, `test-support/smtp_server.py`) on a free loopback
//! port, in one of its modes (accept, refuse, greylist, drop, auth, sink), with or without TLS,
//! with every message it took parsed by Python's e-mail parser.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct TestSmtpServer {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

/// The system Python, which has Debian's python3-aiosmtpd (`make test` installs it).
fn python() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

impl TestSmtpServer {
    /// Starts the server without TLS and waits until it listens.
    pub fn start(mode: &str) -> Self {
        Self::start_tls(mode, "none")
    }

    /// Starts the server with `tls` (none, starttls or implicit) and waits until it listens;
    /// its certificate is signed by the private CA in `ca_file`.
    pub fn start_tls(mode: &str, tls: &str) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir = std::env::temp_dir().join(format!("smtp-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder for the received messages");
        let mut child = Command::new(python())
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/test-support/smtp_server.py"
            ))
            .arg(port.to_string())
            .arg(mode)
            .arg(&dir)
            .arg(tls)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (apt-get install python3-aiosmtpd)");
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            let _ = BufReader::new(stdout).read_line(&mut line);
        }
        assert_eq!(line.trim(), "READY", "the SMTP server did not start");
        Self { child, port, dir }
    }

    /// The PEM certificate of the CA that signed the server's certificate (TLS modes).
    pub fn ca_file(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// The messages taken so far, in order: envelope, headers (lower-case names, every value),
    /// `content_type`, and the `text` and `html` parts.
    pub fn received(&self) -> Vec<serde_json::Value> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .filter_map(|text| serde_json::from_str(&text).ok())
            .collect()
    }
}

impl Drop for TestSmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
