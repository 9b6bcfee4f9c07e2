//! `bench-export --url URL --email E --password P`: signs in at a running gateway, downloads
//! every shipment as CSV from `/exports/shipments.csv`, and prints the rows, the time and the
//! gateway's peak memory (from `--pid`, its /proc status) while it served them.

use std::time::Instant;

mod bench_client;

use futures::StreamExt;

use bench_client::{Browser, peak_mb};

#[derive(clap::Parser)]
#[command(about = "Times a full CSV export through a running gateway")]
struct Cli {
    #[arg(long)]
    url: String,
    #[arg(long)]
    email: String,
    #[arg(long)]
    password: String,
    /// The gateway's process id, for its peak resident memory (VmHWM).
    #[arg(long)]
    pid: Option<u32>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let browser = Browser::sign_in(&cli.url, &cli.email, &cli.password).await?;
    let started = Instant::now();
    let reply = browser
        .http
        .get(format!("{}/exports/shipments.csv", browser.url))
        .header("cookie", &browser.cookie)
        .send()
        .await?;
    anyhow::ensure!(
        reply.status().is_success(),
        "export refused: {}",
        reply.status()
    );
    let (mut bytes, mut lines, mut quoted) = (0u64, 0u64, false);
    let mut body = reply.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        bytes += chunk.len() as u64;
        for &b in chunk.iter() {
            match b {
                b'"' => quoted = !quoted,
                b'\n' if !quoted => lines += 1,
                _ => {}
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let rows = lines.saturating_sub(1);
    let memory = cli
        .pid
        .and_then(peak_mb)
        .map(|mb| format!(", gateway peak RSS {mb:.0} MB"))
        .unwrap_or_default();
    println!(
        "CSV export: {rows} rows, {:.0} MB in {seconds:.1} s ({:.0} rows/s){memory}",
        bytes as f64 / 1e6,
        rows as f64 / seconds.max(1e-9)
    );
    Ok(())
}
