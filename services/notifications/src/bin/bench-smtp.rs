//! `make bench`: e-mails per second from the outbox (SQLite) through the worker to a local SMTP
//! server over pooled connections, one at a time (a tenth of `--emails`) and then
//! `--concurrency` at once. Prints one line per run.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use notifications::config::{MailConfig, SmtpConfig, SmtpTls};
use notifications::{RetryPolicy, Transport, Worker};
use outbox::{OutboxStore, SqliteOutbox};

#[derive(Parser)]
struct Args {
    /// The SMTP server's port on 127.0.0.1 (no TLS, no authentication).
    #[arg(long)]
    port: u16,
    /// E-mails per run.
    #[arg(long, default_value_t = 2000)]
    emails: usize,
    /// Sends at once in the second run.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
}

/// Seconds `count` e-mails took from queued to all sent, `concurrency` at once.
async fn run(args: &Args, count: usize, concurrency: usize) -> anyhow::Result<f64> {
    let dir = std::env::temp_dir().join(format!("bench-smtp-{}-{concurrency}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let store: Arc<dyn OutboxStore> = Arc::new(SqliteOutbox::open(&dir)?);
    let now = service_common::now();
    let emails: Vec<_> = (0..count)
        .map(|i| {
            notifications::sample::shipment(
                &format!("bench{i}@example.com"),
                chrono::NaiveDate::MIN,
            )
            .to_shipper("https://ship.example", now)
        })
        .collect();
    store.enqueue(&emails).await?;
    let config = MailConfig::Smtp(SmtpConfig {
        host: "127.0.0.1".into(),
        port: args.port,
        tls: SmtpTls::None,
        username: None,
        password: None,
        from: "Bench <bench@northwind.example>".parse()?,
        contact_inbox: None,
        ca_file: None,
        helo_name: None,
        allow_plaintext_auth: false,
    });
    let renderer = Arc::new(notifications::render::Renderer::new(
        notifications::brand::Brand::spec_default(),
    )?);
    let worker = Worker {
        store: store.clone(),
        transport: Transport::new(&config, Duration::from_secs(10), renderer, None)?,
        policy: RetryPolicy::default(),
        wake: Arc::new(tokio::sync::Notify::new()),
        clock: notifications::worker::system_clock(),
        concurrency,
        unsettled: Default::default(),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let started = Instant::now();
    let running = tokio::spawn(worker.clone().run(async {
        let _ = stopped.await;
    }));
    worker.wake.notify_one();
    while store.backlog().await? > 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    let _ = stop.send(());
    running.await?;
    std::fs::remove_dir_all(&dir)?;
    Ok(seconds)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    for (count, concurrency) in [
        ((args.emails / 10).max(1), 1),
        (args.emails, args.concurrency),
    ] {
        let seconds = run(&args, count, concurrency).await?;
        println!(
            "{:<58} {:>9.0} e-mails/s   {count} e-mails in {seconds:.2} s",
            format!("SMTP e-mails to local aiosmtpd, {concurrency} at once, pooled"),
            count as f64 / seconds,
        );
    }
    Ok(())
}
