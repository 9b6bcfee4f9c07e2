//! Every binary's settings as an operator meets them: the README's configuration table is
//! made from the settings structs, a bad value stops the start naming its variable, and a
//! first start on a fresh data directory logs no error.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::CommandFactory;

const BEGIN: &str = "<!-- settings-table:begin (made by `UPDATE_README=1 cargo test -p gateway --test integration settings::`) -->";
const END: &str = "<!-- settings-table:end -->";

struct Row {
    used_by: Vec<&'static str>,
    default: String,
    meaning: String,
}

/// One row per environment variable, over every binary that reads it.
fn rows() -> BTreeMap<String, Row> {
    let binaries = [
        ("gateway", gateway::Cli::command()),
        ("shipments", shipments::Cli::command()),
        ("auth", auth::Cli::command()),
        ("notifications", notifications::Cli::command()),
        ("preferences", preferences::Cli::command()),
    ];
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for (binary, command) in binaries {
        for arg in command.get_arguments() {
            let Some(env) = arg.get_env().and_then(|e| e.to_str()) else {
                continue;
            };
            if arg.is_hide_set() {
                continue;
            }
            let default: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| format!("`{}`", v.to_string_lossy()))
                .collect();
            let meaning = arg
                .get_long_help()
                .or(arg.get_help())
                .map(|h| h.to_string().replace('\n', " "))
                .unwrap_or_default();
            let row = rows.entry(env.to_owned()).or_insert_with(|| Row {
                used_by: Vec::new(),
                default: if default.is_empty() {
                    "(unset)".into()
                } else {
                    default.join(", ")
                },
                meaning,
            });
            row.used_by.push(binary);
        }
    }
    rows
}

fn table() -> String {
    let mut out = String::from("| Variable | Used by | Default | Meaning |\n|---|---|---|---|\n");
    for (env, row) in rows() {
        assert!(
            !row.meaning.is_empty(),
            "{env} has no doc comment to explain it"
        );
        out.push_str(&format!(
            "| `{env}` | {} | {} | {} |\n",
            row.used_by.join(", "),
            row.default,
            row.meaning.replace('|', "\\|")
        ));
    }
    out
}

#[test]
fn the_readme_configuration_table_is_made_from_the_settings() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("the README marks its settings table")
        + BEGIN.len();
    let end = readme.find(END).expect("the README marks the table's end");
    let expected = format!("\n{}", table());
    if readme[start..end] == expected {
        return;
    }
    if std::env::var("UPDATE_README").as_deref() == Ok("1") {
        let updated = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(path, updated).unwrap();
        return;
    }
    panic!(
        "README.md's configuration table differs from the settings structs; \
         run `UPDATE_README=1 cargo test -p gateway --test integration settings::` and commit README.md"
    );
}

#[test]
fn every_setting_is_listed_by_help() {
    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for (env, row) in rows() {
        if row.used_by.contains(&"gateway") {
            assert!(help.contains(&format!("[env: {env}")), "--help lacks {env}");
        }
    }
}

#[test]
fn debug_of_the_settings_never_shows_a_secret() {
    let secrets = [
        ("--jwt-signing-key", "secret-jwt-current"),
        ("--jwt-previous-signing-keys", "secret-jwt-previous"),
        ("--redis-url", "redis://:secret-redis@redis:6379"),
        ("--mongodb-uri", "mongodb://ada:secret-mongo@mongo/"),
        ("--admin-password", "secret-admin-password"),
        ("--smtp-password", "secret-smtp"),
        ("--emailjs-private-key", "secret-emailjs"),
        ("--contact-emailjs-private-key", "secret-contact-emailjs"),
    ];
    let args = std::iter::once("gateway").chain(secrets.iter().flat_map(|(f, v)| [*f, *v]));
    let cli = <gateway::Cli as clap::Parser>::try_parse_from(args).unwrap();
    let shown = format!("{cli:?} {:?}", cli.hosted.store.config());
    assert!(!shown.contains("secret-"), "a secret shows: {shown}");
}

#[test]
fn a_bad_value_stops_the_start_and_names_its_variable() {
    for (name, value) in [
        ("PORT", "eighty"),
        ("SESSION_IDLE_MINUTES", "-1"),
        ("LOG_FORMAT", "xml"),
        ("COOKIE_SECURE", "maybe"),
        ("LOGIN_MAX_DELAY_MS", "600000"),
        ("HTTP_HEADER_TIMEOUT_SECONDS", "0"),
        ("HTTP_IDLE_TIMEOUT_SECONDS", "1m"),
        ("HTTP_BODY_TIMEOUT_SECONDS", "-5"),
        ("HTTP_MAX_CONNECTIONS", "0"),
        ("LOG_PUBLIC_REQUESTS", "sample:0"),
        ("LOG_PUBLIC_REQUESTS", "some"),
        ("MAIL_TRANSPORT", "sendgrid"),
        ("SMTP_TLS", "ssl"),
        ("SMTP_PORT", "0"),
        ("SMTP_ALLOW_PLAINTEXT_AUTH", "yes"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
            .env(name, value)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{name}={value} started");
        assert!(stderr.contains(name), "{name}={value}: {stderr}");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env("TRUST_FORWARDED_FOR", "true")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("TRUSTED_PROXY_HOPS"));
}

#[test]
fn the_first_start_on_a_fresh_data_directory_logs_no_error() {
    let data = tempfile::tempdir().unwrap();
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("index.html"), "<!doctype html>").unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("PORT", port.to_string())
        .env("DATA_DIR", data.path())
        .env("STATIC_DIR", files.path())
        .env("METRICS_ADDR", "off")
        .env("ADMIN_EMAIL", "first@example.com")
        .env("ADMIN_PASSWORD", "a long first password")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut log = Vec::new();
    let started = Instant::now();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        let ready = line.contains("listening on");
        log.push(line);
        if ready || started.elapsed() > Duration::from_secs(60) {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        log.iter().any(|l| l.contains("listening on")),
        "never ready: {log:#?}"
    );
    assert!(
        !log.iter().any(|l| l.contains("ERROR")),
        "errors on a first start: {log:#?}"
    );
    let public_url = format!("links in e-mails open http://localhost:{port} ");
    assert!(
        log.iter().any(|l| l.contains(&public_url)),
        "says where e-mail links point: {log:#?}"
    );
}

#[test]
fn links_in_e_mails_follow_the_port_when_public_url_is_unset() {
    let data = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("PORT", "9191")
        .env("DATA_DIR", data.path())
        .env("METRICS_ADDR", "off")
        .args(["demo", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("PSE"), "{said}");
    let links = links_in_outbox(data.path());
    assert!(!links.is_empty());
    assert!(
        links
            .iter()
            .all(|l| l.starts_with("http://localhost:9191/")),
        "{links:#?}"
    );
}

/// The tracking links of the e-mails waiting in the all-in-one's outbox.
fn links_in_outbox(data: &std::path::Path) -> Vec<String> {
    use outbox::OutboxStore;
    let outbox = outbox::SqliteOutbox::open(data).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let emails = runtime
        .block_on(outbox.list(&Default::default(), 100, None))
        .unwrap();
    emails
        .notifications
        .iter()
        .filter_map(|n| n.params.get("tracking_url").cloned())
        .collect()
}
