//! `bench-export --url URL --email E --password P`: signs in at a running gateway, downloads
//! every shipment as CSV from `/exports/shipments.csv`, and prints the rows, the time and the
//! gateway's peak memory (from `--pid`, its /proc status) while it served them.

use std::time::Instant;

use futures::StreamExt;
use prost::Message;

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

/// Peak resident memory of a process, in MB.
fn peak_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let http = reqwest::Client::new();
    let sign_in = logistics_proto::v1::CreateSessionRequest {
        email: cli.email.clone(),
        password: cli.password.clone(),
    }
    .encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(sign_in.len() as u32).to_be_bytes());
    frame.extend_from_slice(&sign_in);
    let signed_in = http
        .post(format!(
            "{}/logistics.v1.SessionService/CreateSession",
            cli.url
        ))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .body(frame)
        .send()
        .await?;
    let cookie = signed_in
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.split(';').next().map(str::to_owned))
        .ok_or_else(|| anyhow::anyhow!("no session cookie: sign-in failed"))?;
    let started = Instant::now();
    let reply = http
        .get(format!("{}/exports/shipments.csv", cli.url))
        .header("cookie", cookie)
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
