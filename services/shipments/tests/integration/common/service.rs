//! The service on a loopback port with the embedded store, and its generated client.

use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use service_auth::{Bearer, Caller, TokenKey};
use tokio::net::TcpListener;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tonic_types::StatusExt;

/// Long enough that a missed eviction of the lookup cache would show as a stale answer.
pub const CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(60);

pub type Client = ShipmentServiceClient<InterceptedService<Channel, Bearer>>;

pub struct Running {
    /// Calls as an admin.
    pub client: Client,
    pub channel: Channel,
    pub key: TokenKey,
    /// The data folder: its SQLite file holds the outbox too.
    pub dir: tempfile::TempDir,
    pub store: service_common::StoreConfig,
}

impl Running {
    pub fn client_as(&self, token: &str) -> Client {
        ShipmentServiceClient::with_interceptor(self.channel.clone(), Bearer::new(token))
    }
}

pub fn caller(role: &str) -> Caller {
    Caller::with_role("u1", "someone@example.com", role.parse().unwrap())
}

pub async fn start() -> Running {
    start_with(shipments::Settings {
        tracking_cache_ttl_ms: CACHE_TTL.as_millis() as u64,
        ..service_common::settings::defaults()
    })
    .await
}

pub async fn start_with(settings: shipments::Settings) -> Running {
    start_in(tempfile::tempdir().unwrap(), TokenKey::generate(), settings).await
}

/// The service on `dir` with `key`: given the folder and key of a running one, what a
/// restart of that one starts with.
pub async fn start_in(
    dir: tempfile::TempDir,
    key: TokenKey,
    settings: shipments::Settings,
) -> Running {
    let store = service_common::StoreConfig::Embedded {
        data_dir: dir.path().to_path_buf(),
    };
    start_on(store, dir, key, settings).await
}

/// The service on MongoDB at `TEST_MONGODB_URI`; None when MongoDB tests are skipped.
pub async fn start_on_mongo() -> Option<Running> {
    let (uri, database) = test_servers::mongodb()?;
    let store = service_common::StoreConfig::Mongo {
        uri: uri.into(),
        database,
    };
    let dir = tempfile::tempdir().unwrap();
    Some(
        start_on(
            store,
            dir,
            TokenKey::generate(),
            service_common::settings::defaults(),
        )
        .await,
    )
}

/// Another replica of `running`: the same store and key, its own process state.
pub async fn replica_of(running: &Running) -> Running {
    let dir = tempfile::tempdir().unwrap();
    start_on(
        running.store.clone(),
        dir,
        running.key.clone(),
        service_common::settings::defaults(),
    )
    .await
}

/// A restart of `running`: the same store and key, default settings.
pub async fn restart(running: Running) -> Running {
    let Running {
        store, dir, key, ..
    } = running;
    start_on(store, dir, key, service_common::settings::defaults()).await
}

async fn start_on(
    store: service_common::StoreConfig,
    dir: tempfile::TempDir,
    key: TokenKey,
    settings: shipments::Settings,
) -> Running {
    let built = shipments::build(
        &store,
        &service_common::settings::defaults(),
        &settings,
        key.clone(),
    )
    .await
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(service_common::serve(
        listener,
        built,
        std::future::pending(),
    ));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let admin = key.mint(&caller("admin"), service_auth::CALL_TOKEN_LIFETIME);
    Running {
        client: ShipmentServiceClient::with_interceptor(channel.clone(), Bearer::new(&admin)),
        channel,
        key,
        dir,
        store,
    }
}

pub fn valid_input() -> pb::Shipment {
    pb::Shipment {
        shipper: Some(pb::Party {
            name: "Amara Okafor".into(),
            address: "14 Marina Road, Lagos".into(),
            phone: "+234 803 555 0142".into(),
            email: "amara@example.com".into(),
        }),
        receiver: Some(pb::Party {
            name: "Jan de Vries".into(),
            address: "Wilhelminakade 88, Rotterdam".into(),
            phone: "+31 10 555 0199".into(),
            email: "jan@example.nl".into(),
        }),
        origin: "Lagos".into(),
        destination: "Rotterdam".into(),
        carrier: "Maersk".into(),
        r#type: pb::ShipmentType::Express.into(),
        mode: pb::ShipmentMode::SeaShipping.into(),
        package_count: 3,
        product: "Cocoa".into(),
        product_quantity: 2,
        payment_mode: pb::PaymentMode::CreditCard.into(),
        total_freight_cents: 125_050,
        // The packages' total: 2 × 12.5 + 3.
        weight_kg: 28.0,
        expected_delivery_date: Some(pb::Date {
            year: 2026,
            month: 12,
            day: 24,
        }),
        departure_time: Some(pb::TimeOfDay {
            hours: 8,
            minutes: 30,
        }),
        pickup_date: Some(pb::Date {
            year: 2026,
            month: 12,
            day: 1,
        }),
        pickup_time: Some(pb::TimeOfDay {
            hours: 9,
            minutes: 15,
        }),
        packages: vec![
            pb::Package {
                quantity: 2,
                piece_type: "Box".into(),
                description: "Beans".into(),
                length_cm: 50.0,
                width_cm: 40.0,
                height_cm: 30.0,
                weight_kg: 12.5,
            },
            pb::Package {
                quantity: 1,
                piece_type: "Crate".into(),
                description: "Tools".into(),
                length_cm: 100.0,
                width_cm: 100.0,
                height_cm: 100.0,
                weight_kg: 3.0,
            },
        ],
        comments: "Keep dry".into(),
        // Output-only fields are ignored on create.
        tracking_number: "PSE000000001".into(),
        current_location: "somewhere else".into(),
        total_volume_cubic_metres: 99.0,
        ..Default::default()
    }
}

pub async fn create(client: &mut Client, input: pb::Shipment) -> pb::Shipment {
    client
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
}

pub fn violations(status: &tonic::Status) -> Vec<String> {
    status
        .get_details_bad_request()
        .map(|b| b.field_violations.into_iter().map(|v| v.field).collect())
        .unwrap_or_default()
}

/// The outbox beside the running service's shipments (same file or database).
pub async fn outbox_of(running: &Running) -> Box<dyn outbox::OutboxStore> {
    use secrecy::ExposeSecret;
    match &running.store {
        service_common::StoreConfig::Embedded { data_dir } => {
            Box::new(outbox::SqliteOutbox::open(data_dir).unwrap())
        }
        service_common::StoreConfig::Mongo { uri, database } => Box::new(
            outbox::MongoOutbox::connect(uri.expose_secret(), database)
                .await
                .unwrap(),
        ),
    }
}
