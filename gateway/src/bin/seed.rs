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
use rand::Rng;
use rand::seq::IndexedRandom;

const CITIES: [&str; 16] = [
    "Lagos",
    "Rotterdam",
    "Shanghai",
    "Singapore",
    "Dubai",
    "Hamburg",
    "Los Angeles",
    "Santos",
    "Mumbai",
    "Tokyo",
    "Sydney",
    "Nairobi",
    "Lima",
    "Oslo",
    "Busan",
    "Antwerp",
];
const NAMES: [&str; 16] = [
    "Amara Okafor",
    "Jan de Vries",
    "Chen Wei",
    "Sofia Martins",
    "Omar Haddad",
    "Emma Schneider",
    "Noah Williams",
    "Priya Sharma",
    "Hiroshi Tanaka",
    "Grace Mitchell",
    "Kwame Mensah",
    "Lucía Fernández",
    "Mia Johansson",
    "Liam O'Connor",
    "Fatima Zahra",
    "Daniel Cohen",
];

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

fn random_shipment() -> pb::CreateShipmentRequest {
    let mut rng = rand::rng();
    let party = |rng: &mut rand::rngs::ThreadRng| pb::Party {
        name: NAMES.choose(rng).unwrap().to_string(),
        address: format!("{} Harbour Road", rng.random_range(1..500)),
        phone: format!("+1 555 {:04}", rng.random_range(0..10_000)),
        email: format!("client{}@example.com", rng.random_range(0..100_000)),
    };
    let quantity = rng.random_range(1..5);
    pb::CreateShipmentRequest {
        shipment: Some(pb::Shipment {
            shipper: Some(party(&mut rng)),
            receiver: Some(party(&mut rng)),
            origin: CITIES.choose(&mut rng).unwrap().to_string(),
            destination: CITIES.choose(&mut rng).unwrap().to_string(),
            carrier: "Benchmark Lines".into(),
            r#type: rng.random_range(1..=3),
            mode: rng.random_range(1..=3),
            package_count: quantity,
            product: "Machine parts".into(),
            product_quantity: 1,
            payment_mode: rng.random_range(1..=4),
            total_freight_cents: rng.random_range(1_000..1_000_000),
            weight_kg: 20.0,
            expected_delivery_date: Some(pb::Date {
                year: 2027,
                month: rng.random_range(1..=12),
                day: rng.random_range(1..=28),
            }),
            departure_time: Some(pb::TimeOfDay {
                hours: 8,
                minutes: 0,
            }),
            pickup_date: Some(pb::Date {
                year: 2026,
                month: 11,
                day: 20,
            }),
            pickup_time: Some(pb::TimeOfDay {
                hours: 9,
                minutes: 30,
            }),
            packages: vec![pb::Package {
                quantity,
                piece_type: "Box".into(),
                description: "Parts".into(),
                length_cm: 40.0,
                width_cm: 30.0,
                height_cm: 20.0,
                weight_kg: 5.0,
            }],
            ..Default::default()
        }),
        ..pb::CreateShipmentRequest::default()
    }
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
