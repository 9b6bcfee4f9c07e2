//! `seed --count N [--numbers FILE] [--customers C] [--bulk]`: fills the configured store with
//! N varied shipments through the shipment service API, for benchmarks; half of them then move
//! to another status. Writes up to 10,000 of their tracking numbers, one a line, to FILE.
//! `--bulk` writes them straight into the store in batches (as an import does), for the
//! million-shipment list benchmark: no e-mails, no audit entries.

use std::io::Write;

use futures::{StreamExt, TryStreamExt};
use logistics_proto::v1::{
    self as pb, customer_service_client::CustomerServiceClient,
    shipment_service_client::ShipmentServiceClient,
};
mod bench_client;

use bench_client::{CITIES, random_shipment};
use rand::Rng;
use rand::seq::IndexedRandom;

/// The customer of shipment `i`: the first ships a tenth, the others share the rest.
fn customer_of(i: usize, customers: &[String]) -> Option<&String> {
    match customers.len() {
        0 => None,
        1 => customers.first(),
        _ if i.is_multiple_of(10) => customers.first(),
        n => customers.get(1 + i % (n - 1)),
    }
}

/// `count` random shipments written straight into the store in batches, half of them in
/// another status than pending, created over the last 365 days.
async fn bulk(
    config: &service_common::StoreConfig,
    count: usize,
    customers: &[String],
) -> anyhow::Result<()> {
    use shipments::domain::{Shipment, Status, TrackingNumber};
    let store = shipments::open_store(config).await?;
    let now = chrono::Utc::now();
    let mut done = 0;
    while done < count {
        let batch: Vec<(Shipment, shipments::store::Effects)> = (done..count.min(done + 5_000))
            .map(|i| {
                let mut input = random_shipment().shipment.expect("a shipment");
                if let Some(customer) = customer_of(i, customers) {
                    input.customer_id = customer.clone();
                }
                let details = shipments::convert::details_from_proto(&input)
                    .expect("the seed's shipments are valid");
                let mut rng = rand::rng();
                let at = now - chrono::Duration::seconds(rng.random_range(0..365 * 24 * 3600));
                let mut shipment =
                    Shipment::create(details, TrackingNumber::generate(), at, "seed");
                if rng.random_bool(0.5) {
                    shipment.status = *Status::ALL.choose(&mut rng).expect("statuses");
                }
                (shipment, shipments::store::Effects::default())
            })
            .collect();
        // A tracking number drawn twice is refused; the next batch makes up for it.
        done += store
            .insert_each(batch)
            .await?
            .iter()
            .filter(|outcome| outcome.is_ok())
            .count();
    }
    Ok(())
}

#[derive(clap::Parser)]
#[command(about = "Seeds random shipments through the shipment service API")]
struct Cli {
    /// How many shipments to create.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Write (up to 10,000 of) their tracking numbers to this file.
    #[arg(long)]
    numbers: Option<std::path::PathBuf>,
    /// Create this many customers first and give each shipment one: the first customer ships
    /// a tenth of them (the portal benchmark's big customer), the others share the rest.
    #[arg(long, default_value_t = 0)]
    customers: usize,
    /// Write the shipments straight into the store, 5,000 at a time.
    #[arg(long)]
    bulk: bool,
    #[command(flatten)]
    store: service_common::settings::StoreSettings,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let count = cli.count;
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
    let client = ShipmentServiceClient::with_interceptor(
        built.server.clone(),
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    );
    let mut customers = CustomerServiceClient::with_interceptor(
        built.server.clone(),
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    );
    let mut customer_ids = Vec::with_capacity(cli.customers);
    for i in 0..cli.customers {
        let customer = customers
            .create_customer(pb::CreateCustomerRequest {
                customer: Some(pb::Customer {
                    name: format!("Benchmark Customer {i:04}"),
                    ..Default::default()
                }),
            })
            .await?
            .into_inner();
        customer_ids.push(customer.id);
    }
    let started = std::time::Instant::now();
    if cli.bulk {
        bulk(&cli.store.config(), count, &customer_ids).await?;
        eprintln!(
            "seeded {count} shipments in {:.1} s (bulk)",
            started.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let numbers: Vec<String> = futures::stream::iter(0..count)
        .map(|i| {
            let mut client = client.clone();
            let mut request = random_shipment();
            if !customer_ids.is_empty() {
                let which = if i % 10 == 0 || customer_ids.len() == 1 {
                    0
                } else {
                    1 + i % (customer_ids.len() - 1)
                };
                request.shipment.as_mut().expect("a shipment").customer_id =
                    customer_ids[which].clone();
            }
            async move {
                let created = client.create_shipment(request).await?.into_inner();
                let status = rand::rng().random_range(1..=10);
                if status <= 5 {
                    let update = pb::UpdateShipmentTrackingRequest {
                        id: created.id.clone(),
                        status,
                        current_location: CITIES.choose(&mut rand::rng()).unwrap().to_string(),
                        remarks: String::new(),
                        ..Default::default()
                    };
                    client.update_shipment_tracking(update).await?;
                }
                Ok::<_, tonic::Status>(created.tracking_number)
            }
        })
        .buffer_unordered(32)
        .try_collect()
        .await?;
    eprintln!(
        "seeded {count} shipments in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = cli.numbers {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
        for n in numbers.iter().take(10_000) {
            writeln!(file, "{n}")?;
        }
    }
    Ok(())
}
