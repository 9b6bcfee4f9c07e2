//! `bench-list [--rounds N]`: times the admin list (search + status filter + first page) and
//! the dashboard's figures through the shipment service API over the configured (already
//! seeded) store, and prints p50 and p95 of each.

use std::time::Instant;

use logistics_proto::v1::{
    self as pb, customer_portal_service_client::CustomerPortalServiceClient,
    customer_service_client::CustomerServiceClient, shipment_service_client::ShipmentServiceClient,
};

/// What an admin types: names, places and part of a tracking number.
const SEARCHES: [&str; 8] = [
    "okafor", "rotter", "Chen Wei", "harbour", "tokyo", "PSE1", "lucía", "o'connor",
];

#[derive(clap::Parser)]
#[command(about = "Times the admin list over an already seeded store")]
struct Cli {
    /// Rounds of the 8 searches, each with another status filter.
    #[arg(long, default_value_t = 25)]
    rounds: usize,
    #[command(flatten)]
    store: service_common::settings::StoreSettings,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let rounds = cli.rounds;
    let key = service_auth::TokenKey::generate();
    let uncached: shipments::Settings =
        service_common::settings::from_flags(&["--tracking-cache-ttl-ms", "0"])?;
    let built = shipments::build(
        &cli.store.config(),
        &service_common::settings::defaults(),
        &uncached,
        key.clone(),
    )
    .await?;
    let mut client = ShipmentServiceClient::with_interceptor(
        built.server.clone(),
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    );
    let mut times = Vec::new();
    let mut total = 0;
    for round in 0..rounds {
        for (i, search) in SEARCHES.iter().enumerate() {
            let request = pb::ListShipmentsRequest {
                page_size: 20,
                page_token: String::new(),
                status: ((round + i) % 5 + 1) as i32,
                query: (*search).to_owned(),
                ..Default::default()
            };
            let started = Instant::now();
            let page = client.list_shipments(request).await?.into_inner();
            times.push(started.elapsed());
            total = page.total_size.max(total);
        }
    }
    let (p50, p95) = percentiles(&mut times);
    println!(
        "admin list (search + status + first page): {} queries, p50 {p50:.1} ms, p95 {p95:.1} ms (largest match count {total})",
        times.len(),
    );
    // The portal's list of the big customer `seed --customers` made (a tenth of the store).
    let big = CustomerServiceClient::with_interceptor(
        built.server.clone(),
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    )
    .list_customers(pb::ListCustomersRequest {
        query: "Benchmark Customer 0000".into(),
        ..Default::default()
    })
    .await?
    .into_inner()
    .customers
    .into_iter()
    .next();
    match big {
        None => println!("portal list: skipped (the store was seeded without --customers)"),
        Some(customer) => {
            let caller = service_auth::Caller::of_customer(
                "bench",
                "bench@example.com",
                service_auth::Role::CustomerUser,
                &customer.id,
            );
            let mut portal = CustomerPortalServiceClient::with_interceptor(
                built.server.clone(),
                service_auth::Bearer::new(&key.mint(&caller, std::time::Duration::from_secs(3600))),
            );
            let mut times = Vec::new();
            let mut total = 0;
            for round in 0..rounds {
                for (i, search) in std::iter::once(&"").chain(SEARCHES.iter()).enumerate() {
                    let request = pb::ListShipmentsRequest {
                        page_size: 20,
                        status: if i == 0 {
                            0
                        } else {
                            ((round + i) % 5 + 1) as i32
                        },
                        query: (*search).to_owned(),
                        ..Default::default()
                    };
                    let started = Instant::now();
                    let page = portal.list_shipments(request).await?.into_inner();
                    times.push(started.elapsed());
                    total = page.total_size.max(total);
                }
            }
            let (p50, p95) = percentiles(&mut times);
            println!(
                "portal list (one customer's first page, search + status): {} queries, p50 {p50:.1} ms, p95 {p95:.1} ms (largest match count {total})",
                times.len(),
            );
        }
    }
    // The dashboard's figures: counts by status, late, 30 days of created and delivered.
    let mut times = Vec::new();
    let mut counted = 0;
    for _ in 0..rounds * 4 {
        let started = Instant::now();
        let stats = client
            .get_shipment_statistics(pb::GetShipmentStatisticsRequest {})
            .await?
            .into_inner();
        times.push(started.elapsed());
        counted = stats.total;
    }
    let (p50, p95) = percentiles(&mut times);
    println!(
        "dashboard figures: {} queries, p50 {p50:.1} ms, p95 {p95:.1} ms (over {counted} shipments)",
        times.len(),
    );
    Ok(())
}

/// The median and 95th percentile, in milliseconds.
fn percentiles(times: &mut [std::time::Duration]) -> (f64, f64) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    (at(0.50).as_secs_f64() * 1e3, at(0.95).as_secs_f64() * 1e3)
}
