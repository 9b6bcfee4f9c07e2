//! `bench-watch --url URL --email E --password P --pid PID`: live pages through a running
//! gateway. Opens `--watchers` tracking-page watchers spread over `--shipments` shipments,
//! changes each shipment in turn `--rounds` times and times, from sending each change to each
//! watcher's message, how long the watchers took to hear it (p50, p95, the slowest); then holds
//! `--idle` watchers open and prints the gateway's memory. Watchers are gRPC streams over
//! HTTP/2, `--per-connection` on each connection, as a browser's tabs share one.

use std::sync::Arc;
use std::time::{Duration, Instant};

mod bench_client;

use bench_client::Browser;
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use tokio::sync::mpsc;
use tonic::transport::{Channel, Endpoint};

#[derive(clap::Parser)]
#[command(about = "Times live pages through a running gateway")]
struct Cli {
    #[arg(long)]
    url: String,
    #[arg(long)]
    email: String,
    #[arg(long)]
    password: String,
    /// The gateway's process id, for its memory.
    #[arg(long)]
    pid: u32,
    #[arg(long, default_value_t = 1000)]
    watchers: usize,
    #[arg(long, default_value_t = 10)]
    shipments: usize,
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    #[arg(long, default_value_t = 10_000)]
    idle: usize,
    #[arg(long, default_value_t = 100)]
    per_connection: usize,
}

/// Names for the places the changes move shipments to.
const PLACE_WORDS: [&str; 12] = [
    "Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett",
    "Kilo", "Lima",
];

/// When watcher `index` heard shipment `shipment` move to `location`.
struct Heard {
    location: String,
    at: Instant,
}

fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

async fn channels(url: &str, count: usize) -> anyhow::Result<Vec<Channel>> {
    let mut all = Vec::with_capacity(count);
    for _ in 0..count {
        all.push(Endpoint::from_shared(url.to_owned())?.connect().await?);
    }
    Ok(all)
}

/// Opens `count` watchers of `numbers` (in turn); each sends what it hears on `heard` once it
/// has had its first message. Returns when every one has.
async fn open(
    url: &str,
    numbers: &[String],
    count: usize,
    per_connection: usize,
    heard: Option<mpsc::UnboundedSender<Heard>>,
) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let channels = channels(url, count.div_ceil(per_connection)).await?;
    let (ready_tx, mut ready) = mpsc::unbounded_channel::<Result<(), String>>();
    let mut tasks = Vec::with_capacity(count);
    for i in 0..count {
        let mut client = ShipmentServiceClient::new(channels[i / per_connection].clone());
        let number = numbers[i % numbers.len()].clone();
        let ready_tx = ready_tx.clone();
        let heard = heard.clone();
        tasks.push(tokio::spawn(async move {
            let opened = client
                .watch_shipment(pb::WatchShipmentRequest {
                    tracking_number: number,
                    ..Default::default()
                })
                .await;
            let mut stream = match opened {
                Ok(stream) => stream.into_inner(),
                Err(status) => {
                    let _ = ready_tx.send(Err(status.message().to_owned()));
                    return;
                }
            };
            let mut first = true;
            while let Ok(Some(message)) = stream.message().await {
                let Some(shipment) = message.shipment else {
                    continue;
                };
                if std::mem::take(&mut first) {
                    let _ = ready_tx.send(Ok(()));
                } else if let Some(heard) = &heard {
                    let _ = heard.send(Heard {
                        location: shipment.current_location,
                        at: Instant::now(),
                    });
                }
            }
        }));
    }
    for _ in 0..count {
        match ready.recv().await {
            Some(Ok(())) => {}
            Some(Err(message)) => anyhow::bail!("a watcher was refused: {message}"),
            None => anyhow::bail!("the watchers stopped"),
        }
    }
    Ok(tasks)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let browser = Arc::new(Browser::sign_in(&cli.url, &cli.email, &cli.password).await?);
    let mut shipments = Vec::new();
    for _ in 0..cli.shipments {
        let created: pb::Shipment = browser
            .call(
                "/logistics.v1.ShipmentService/CreateShipment",
                &bench_client::random_shipment(),
            )
            .await?;
        shipments.push(created);
    }
    let numbers: Vec<String> = shipments
        .iter()
        .map(|s| s.tracking_number.clone())
        .collect();

    let (heard_tx, mut heard) = mpsc::unbounded_channel();
    let opened_at = Instant::now();
    let watchers = open(
        &cli.url,
        &numbers,
        cli.watchers,
        cli.per_connection,
        Some(heard_tx),
    )
    .await?;
    let opening = opened_at.elapsed();
    let per_shipment = cli.watchers.div_ceil(cli.shipments);
    let mut delays = Vec::new();
    let mut answers = Vec::new();
    for round in 0..cli.rounds {
        let shipment = &shipments[round % shipments.len()];
        // Words, not digits or short letters: a visitor's view drops a place's parts with
        // numbers or street abbreviations in them.
        let location = format!(
            "Depot {} {}",
            PLACE_WORDS[round / PLACE_WORDS.len() % PLACE_WORDS.len()],
            PLACE_WORDS[round % PLACE_WORDS.len()]
        );
        let watching = (0..cli.watchers)
            .filter(|i| i % shipments.len() == round % shipments.len())
            .count();
        // From the moment the change is sent: its answer reaches the writer about when the
        // watchers hear it, so this counts the write itself too.
        let sent = Instant::now();
        let _: pb::Shipment = browser
            .call(
                "/logistics.v1.ShipmentService/UpdateShipmentTracking",
                &pb::UpdateShipmentTrackingRequest {
                    id: shipment.id.clone(),
                    status: pb::ShipmentStatus::InTransit.into(),
                    current_location: location.clone(),
                    ..Default::default()
                },
            )
            .await?;
        answers.push(sent.elapsed().as_secs_f64() * 1000.0);
        let mut got = 0;
        while got < watching {
            let next = tokio::time::timeout(Duration::from_secs(30), heard.recv())
                .await
                .map_err(|_| {
                    anyhow::anyhow!("watchers missed change {round} ({got} of {watching})")
                })?
                .ok_or_else(|| anyhow::anyhow!("the watchers stopped"))?;
            if next.location == location {
                got += 1;
                delays.push(next.at.saturating_duration_since(sent).as_secs_f64() * 1000.0);
            }
        }
    }
    delays.sort_by(f64::total_cmp);
    answers.sort_by(f64::total_cmp);
    println!(
        "live tracking pages: {} watchers ({per_shipment} per shipment) opened in {:.1} s; from sending a change to every watcher hearing it: p50 {:.1} ms, p95 {:.1} ms, slowest {:.1} ms over {} changes (the change's own answer: p50 {:.1} ms)",
        cli.watchers,
        opening.as_secs_f64(),
        percentile(&delays, 0.5),
        percentile(&delays, 0.95),
        delays.last().copied().unwrap_or_default(),
        cli.rounds,
        percentile(&answers, 0.5),
    );
    for task in watchers {
        task.abort();
    }

    let before = rss_mb(cli.pid).unwrap_or_default();
    let opened_at = Instant::now();
    let idle = open(&cli.url, &numbers, cli.idle, cli.per_connection, None).await?;
    let rss = rss_mb(cli.pid).unwrap_or_default();
    println!(
        "idle live pages: {} watchers open (in {:.1} s); gateway RSS {rss:.1} MB (before them {before:.1} MB)",
        cli.idle,
        opened_at.elapsed().as_secs_f64(),
    );
    for task in idle {
        task.abort();
    }
    Ok(())
}
