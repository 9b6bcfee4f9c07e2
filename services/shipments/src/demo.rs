//! A dozen realistic shipments in every status, loaded through the service API.

use chrono::{Datelike, Duration, Utc};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use tonic::codegen::{Body, Bytes, StdError};

use crate::convert::{self};
use crate::domain::Shipment;

struct Demo {
    shipper: (&'static str, &'static str, &'static str, &'static str),
    receiver: (&'static str, &'static str, &'static str, &'static str),
    origin: &'static str,
    destination: &'static str,
    carrier: &'static str,
    kind: pb::ShipmentType,
    mode: pb::ShipmentMode,
    payment: pb::PaymentMode,
    product: &'static str,
    freight_cents: i64,
    packages: &'static [(i32, &'static str, &'static str, f64, f64, f64, f64)],
    /// Tracking updates after creation: (status, location, remarks).
    journey: &'static [(pb::ShipmentStatus, &'static str, &'static str)],
}

use pb::PaymentMode as Pay;
use pb::ShipmentMode as Mode;
use pb::ShipmentStatus as St;
use pb::ShipmentType as Kind;

const DEMOS: [Demo; 12] = [
    Demo {
        shipper: (
            "Amara Okafor",
            "14 Marina Road, Lagos Island, Lagos, Nigeria",
            "+234 803 555 0142",
            "amara.okafor@example.com",
        ),
        receiver: (
            "Jan de Vries",
            "Wilhelminakade 88, 3072 AP Rotterdam, Netherlands",
            "+31 10 555 0199",
            "jan.devries@example.nl",
        ),
        origin: "Lagos, Nigeria",
        destination: "Rotterdam, Netherlands",
        carrier: "Maersk Line",
        kind: Kind::Economy,
        mode: Mode::SeaShipping,
        payment: Pay::BankTransfer,
        product: "Cocoa beans",
        freight_cents: 482_500,
        packages: &[(
            20,
            "Pallet",
            "Cocoa beans in jute sacks",
            120.0,
            100.0,
            110.0,
            640.0,
        )],
        journey: &[
            (
                St::InTransit,
                "Port of Tema, Ghana",
                "Loaded on vessel MSC Aurora",
            ),
            (St::InTransit, "Atlantic Ocean", "At sea"),
        ],
    },
    Demo {
        shipper: (
            "Sofia Martins",
            "Rua Augusta 210, 1100-053 Lisboa, Portugal",
            "+351 21 555 0134",
            "sofia.martins@example.pt",
        ),
        receiver: (
            "Daniel Cohen",
            "350 Fifth Avenue, New York, NY 10118, USA",
            "+1 212 555 0175",
            "daniel.cohen@example.com",
        ),
        origin: "Lisbon, Portugal",
        destination: "New York, USA",
        carrier: "TAP Air Cargo",
        kind: Kind::Express,
        mode: Mode::AirShipping,
        payment: Pay::CreditCard,
        product: "Handmade ceramic tiles",
        freight_cents: 125_000,
        packages: &[
            (2, "Box", "Azulejo tiles, fragile", 50.0, 40.0, 30.0, 12.5),
            (1, "Crate", "Display panels", 80.0, 60.0, 20.0, 18.0),
        ],
        journey: &[
            (St::InTransit, "Lisbon Airport (LIS)", "Departed on TP1201"),
            (St::Delivered, "New York, USA", "Signed for by D. Cohen"),
        ],
    },
    Demo {
        shipper: (
            "Hiroshi Tanaka",
            "2-7-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan",
            "+81 3 5555 0110",
            "h.tanaka@example.jp",
        ),
        receiver: (
            "Emma Schneider",
            "Friedrichstraße 43, 10117 Berlin, Germany",
            "+49 30 5555 0123",
            "emma.schneider@example.de",
        ),
        origin: "Tokyo, Japan",
        destination: "Berlin, Germany",
        carrier: "Lufthansa Cargo",
        kind: Kind::Express,
        mode: Mode::AirShipping,
        payment: Pay::BankTransfer,
        product: "Camera lenses",
        freight_cents: 89_900,
        packages: &[(3, "Box", "Boxed camera lenses", 30.0, 30.0, 25.0, 4.2)],
        journey: &[
            (St::InTransit, "Narita Airport (NRT)", "Departed"),
            (
                St::Delayed,
                "Frankfurt Airport (FRA)",
                "Held for customs inspection",
            ),
        ],
    },
    Demo {
        shipper: (
            "Carlos Mendoza",
            "Av. Insurgentes Sur 1602, Ciudad de México, Mexico",
            "+52 55 5555 0167",
            "carlos.mendoza@example.mx",
        ),
        receiver: (
            "Olivia Brown",
            "2200 Ross Avenue, Dallas, TX 75201, USA",
            "+1 214 555 0188",
            "olivia.brown@example.com",
        ),
        origin: "Mexico City, Mexico",
        destination: "Dallas, USA",
        carrier: "Estafeta Freight",
        kind: Kind::Standard,
        mode: Mode::LandShipping,
        payment: Pay::Cash,
        product: "Auto parts",
        freight_cents: 56_075,
        packages: &[(4, "Pallet", "Brake assemblies", 120.0, 80.0, 90.0, 210.0)],
        journey: &[(
            St::OnHold,
            "Nuevo Laredo border crossing",
            "Awaiting import permit",
        )],
    },
    Demo {
        shipper: (
            "Priya Sharma",
            "Plot 12, MIDC Andheri East, Mumbai 400093, India",
            "+91 22 5555 0148",
            "priya.sharma@example.in",
        ),
        receiver: (
            "Liam O'Connor",
            "1 Grand Canal Square, Dublin 2, Ireland",
            "+353 1 555 0156",
            "liam.oconnor@example.ie",
        ),
        origin: "Mumbai, India",
        destination: "Dublin, Ireland",
        carrier: "Emirates SkyCargo",
        kind: Kind::Standard,
        mode: Mode::AirShipping,
        payment: Pay::CreditCard,
        product: "Cotton garments",
        freight_cents: 73_450,
        packages: &[(6, "Carton", "Folded cotton shirts", 60.0, 40.0, 40.0, 15.0)],
        journey: &[],
    },
    Demo {
        shipper: (
            "Chen Wei",
            "88 Century Avenue, Pudong, Shanghai 200120, China",
            "+86 21 5555 0199",
            "chen.wei@example.cn",
        ),
        receiver: (
            "Grace Mitchell",
            "200 George Street, Sydney NSW 2000, Australia",
            "+61 2 5555 0177",
            "grace.mitchell@example.com.au",
        ),
        origin: "Shanghai, China",
        destination: "Sydney, Australia",
        carrier: "COSCO Shipping",
        kind: Kind::Economy,
        mode: Mode::SeaShipping,
        payment: Pay::BankTransfer,
        product: "Solar panels",
        freight_cents: 1_240_000,
        packages: &[(
            10,
            "Pallet",
            "Monocrystalline panels",
            200.0,
            110.0,
            120.0,
            480.0,
        )],
        journey: &[
            (St::InTransit, "Port of Shanghai", "Vessel departed"),
            (St::InTransit, "Port of Singapore", "Transhipment"),
        ],
    },
    Demo {
        shipper: (
            "Fatima Zahra",
            "Boulevard Zerktouni 120, Casablanca, Morocco",
            "+212 522 555 013",
            "fatima.zahra@example.ma",
        ),
        receiver: (
            "Lucas Dubois",
            "12 Rue de Rivoli, 75004 Paris, France",
            "+33 1 55 55 01 45",
            "lucas.dubois@example.fr",
        ),
        origin: "Casablanca, Morocco",
        destination: "Paris, France",
        carrier: "CMA CGM",
        kind: Kind::Standard,
        mode: Mode::SeaShipping,
        payment: Pay::Check,
        product: "Argan oil",
        freight_cents: 38_020,
        packages: &[(
            12,
            "Case",
            "Argan oil bottles, 24 per case",
            40.0,
            30.0,
            30.0,
            14.0,
        )],
        journey: &[(St::Delivered, "Paris, France", "Delivered to reception")],
    },
    Demo {
        shipper: (
            "Noah Williams",
            "500 Boylston Street, Boston, MA 02116, USA",
            "+1 617 555 0102",
            "noah.williams@example.com",
        ),
        receiver: (
            "Isabella Rossi",
            "Via Montenapoleone 8, 20121 Milano, Italy",
            "+39 02 5555 0138",
            "isabella.rossi@example.it",
        ),
        origin: "Boston, USA",
        destination: "Milan, Italy",
        carrier: "DHL Aviation",
        kind: Kind::Express,
        mode: Mode::AirShipping,
        payment: Pay::CreditCard,
        product: "Medical devices",
        freight_cents: 215_000,
        packages: &[(1, "Crate", "Ultrasound unit", 90.0, 70.0, 110.0, 68.0)],
        journey: &[
            (St::InTransit, "Boston Logan (BOS)", "Departed"),
            (St::InTransit, "Leipzig Hub, Germany", "Arrived at hub"),
        ],
    },
    Demo {
        shipper: (
            "Kwame Mensah",
            "Spintex Road, Accra, Ghana",
            "+233 30 555 0161",
            "kwame.mensah@example.com.gh",
        ),
        receiver: (
            "Aisha Bello",
            "Plot 45, Central Business District, Abuja, Nigeria",
            "+234 809 555 0120",
            "aisha.bello@example.ng",
        ),
        origin: "Accra, Ghana",
        destination: "Abuja, Nigeria",
        carrier: "ABC Transport",
        kind: Kind::Economy,
        mode: Mode::LandShipping,
        payment: Pay::Cash,
        product: "Textiles",
        freight_cents: 24_500,
        packages: &[(5, "Bale", "Kente cloth", 80.0, 60.0, 50.0, 30.0)],
        journey: &[
            (St::Delayed, "Seme border, Benin", "Road closure"),
            (St::InTransit, "Lagos, Nigeria", "Back on the road"),
        ],
    },
    Demo {
        shipper: (
            "Mia Johansson",
            "Drottninggatan 55, 111 21 Stockholm, Sweden",
            "+46 8 555 0133",
            "mia.johansson@example.se",
        ),
        receiver: (
            "Ethan Clarke",
            "1 Canada Square, London E14 5AB, United Kingdom",
            "+44 20 5555 0150",
            "ethan.clarke@example.co.uk",
        ),
        origin: "Stockholm, Sweden",
        destination: "London, United Kingdom",
        carrier: "DB Schenker",
        kind: Kind::Standard,
        mode: Mode::LandShipping,
        payment: Pay::BankTransfer,
        product: "Flat-pack furniture",
        freight_cents: 64_800,
        packages: &[(8, "Box", "Oak shelving kits", 180.0, 40.0, 15.0, 22.0)],
        journey: &[(
            St::OnHold,
            "Port of Gothenburg, Sweden",
            "Awaiting payment confirmation",
        )],
    },
    Demo {
        shipper: (
            "Lucía Fernández",
            "Avenida Corrientes 1234, Buenos Aires, Argentina",
            "+54 11 5555 0174",
            "lucia.fernandez@example.com.ar",
        ),
        receiver: (
            "Pedro Almeida",
            "Avenida Paulista 1000, São Paulo, Brazil",
            "+55 11 5555 0112",
            "pedro.almeida@example.com.br",
        ),
        origin: "Buenos Aires, Argentina",
        destination: "São Paulo, Brazil",
        carrier: "LATAM Cargo",
        kind: Kind::Express,
        mode: Mode::AirShipping,
        payment: Pay::CreditCard,
        product: "Wine",
        freight_cents: 99_990,
        packages: &[(
            10,
            "Case",
            "Malbec, 6 bottles per case",
            35.0,
            25.0,
            33.0,
            9.0,
        )],
        journey: &[],
    },
    Demo {
        shipper: (
            "Omar Haddad",
            "Sheikh Zayed Road, Dubai, United Arab Emirates",
            "+971 4 555 0190",
            "omar.haddad@example.ae",
        ),
        receiver: (
            "Sarah Nguyen",
            "1 Harbourfront Walk, Singapore 098585",
            "+65 6555 0143",
            "sarah.nguyen@example.sg",
        ),
        origin: "Dubai, United Arab Emirates",
        destination: "Singapore",
        carrier: "Hapag-Lloyd",
        kind: Kind::Standard,
        mode: Mode::SeaShipping,
        payment: Pay::BankTransfer,
        product: "Industrial pumps",
        freight_cents: 310_000,
        packages: &[
            (2, "Crate", "Centrifugal pumps", 150.0, 100.0, 100.0, 350.0),
            (1, "Box", "Spare seals and manuals", 40.0, 30.0, 20.0, 6.0),
        ],
        journey: &[
            (St::InTransit, "Jebel Ali Port", "Vessel departed"),
            (St::Delivered, "Singapore", "Delivered to warehouse"),
        ],
    },
];

fn party(p: (&str, &str, &str, &str)) -> Option<pb::Party> {
    Some(pb::Party {
        name: p.0.into(),
        address: p.1.into(),
        phone: p.2.into(),
        email: p.3.into(),
    })
}

fn date_in(days: i64) -> Option<pb::Date> {
    let d = Utc::now().date_naive() + Duration::days(days);
    Some(pb::Date {
        year: d.year(),
        month: d.month() as i32,
        day: d.day() as i32,
    })
}

fn create_request(i: usize, demo: &Demo) -> pb::CreateShipmentRequest {
    let packages: Vec<pb::Package> = demo
        .packages
        .iter()
        .map(
            |&(quantity, piece_type, description, length_cm, width_cm, height_cm, weight_kg)| {
                pb::Package {
                    quantity,
                    piece_type: piece_type.into(),
                    description: description.into(),
                    length_cm,
                    width_cm,
                    height_cm,
                    weight_kg,
                }
            },
        )
        .collect();
    let weight_kg = packages
        .iter()
        .map(|p| p.weight_kg * f64::from(p.quantity))
        .sum();
    let offset = i as i64;
    pb::CreateShipmentRequest {
        shipment: Some(pb::Shipment {
            shipper: party(demo.shipper),
            receiver: party(demo.receiver),
            origin: demo.origin.into(),
            destination: demo.destination.into(),
            carrier: demo.carrier.into(),
            r#type: demo.kind.into(),
            mode: demo.mode.into(),
            package_count: packages.iter().map(|p| p.quantity).sum(),
            product: demo.product.into(),
            product_quantity: packages.len() as i32,
            payment_mode: demo.payment.into(),
            total_freight_cents: demo.freight_cents,
            weight_kg,
            expected_delivery_date: date_in(3 + offset),
            departure_time: Some(pb::TimeOfDay {
                hours: 8 + (i as i32 % 10),
                minutes: 30,
            }),
            pickup_date: date_in(-2),
            pickup_time: Some(pb::TimeOfDay {
                hours: 9,
                minutes: 15,
            }),
            packages,
            comments: format!("Handle with care. Reference DEMO-{:03}.", i + 1),
            ..Default::default()
        }),
    }
}

/// Creates the demo shipments and walks each through its journey; returns them as stored.
pub async fn load<T>(client: &mut ShipmentServiceClient<T>) -> Result<Vec<Shipment>, tonic::Status>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<StdError>,
    T::ResponseBody: Body<Data = Bytes> + Send + 'static,
    <T::ResponseBody as Body>::Error: Into<StdError> + Send,
{
    let mut loaded = Vec::new();
    for (i, demo) in DEMOS.iter().enumerate() {
        let mut shipment = client
            .create_shipment(create_request(i, demo))
            .await?
            .into_inner();
        for &(status, location, remarks) in demo.journey {
            let update = pb::UpdateShipmentTrackingRequest {
                id: shipment.id.clone(),
                status: status.into(),
                current_location: location.into(),
                remarks: remarks.into(),
            };
            shipment = client.update_shipment_tracking(update).await?.into_inner();
        }
        loaded.push(
            convert::shipment_from_proto(&shipment)
                .map_err(|e| tonic::Status::internal(format!("{e:?}")))?,
        );
    }
    Ok(loaded)
}
