//! What the benchmark tools share: signing in at a running gateway and calling it over
//! gRPC-web as a browser does, and reading a process's peak memory.
// Each tool uses part of it.
#![allow(dead_code)]

use logistics_proto::v1 as pb;
use prost::Message;
use rand::Rng;
use rand::seq::IndexedRandom;

/// Peak resident memory of a process, in MB.
pub fn peak_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A signed-in browser of a running gateway.
pub struct Browser {
    pub http: reqwest::Client,
    pub url: String,
    pub cookie: String,
}

impl Browser {
    pub async fn sign_in(url: &str, email: &str, password: &str) -> anyhow::Result<Self> {
        let mut browser = Self {
            http: reqwest::Client::new(),
            url: url.trim_end_matches('/').to_owned(),
            cookie: String::new(),
        };
        let request = logistics_proto::v1::CreateSessionRequest {
            email: email.to_owned(),
            password: password.to_owned(),
        };
        let reply = browser
            .post("/logistics.v1.SessionService/CreateSession", &request)
            .await?;
        browser.cookie = reply
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| c.split(';').next().map(str::to_owned))
            .ok_or_else(|| anyhow::anyhow!("no session cookie: sign-in failed"))?;
        Ok(browser)
    }

    async fn post(&self, path: &str, message: &impl Message) -> anyhow::Result<reqwest::Response> {
        let body = message.encode_to_vec();
        let mut frame = vec![0u8];
        frame.extend_from_slice(&(body.len() as u32).to_be_bytes());
        frame.extend_from_slice(&body);
        Ok(self
            .http
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/grpc-web+proto")
            .header("x-grpc-web", "1")
            .header("cookie", &self.cookie)
            .body(frame)
            .send()
            .await?)
    }

    /// A unary call: its answer, or the error the gateway gave.
    pub async fn call<T: Message + Default>(
        &self,
        path: &str,
        message: &impl Message,
    ) -> anyhow::Result<T> {
        let reply = self.post(path, message).await?;
        let status = reply
            .headers()
            .get("grpc-status")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let message = reply
            .headers()
            .get("grpc-message")
            .and_then(|v| v.to_str().ok())
            .map(|m| {
                m.replace("%20", " ")
                    .replace("%3A", ":")
                    .replace("%2C", ",")
            })
            .unwrap_or_default();
        let bytes = reply.bytes().await?;
        // Data frame (flag 0) then trailers frame (flag 0x80), or trailers only.
        if bytes.len() >= 5 && bytes[0] == 0 {
            let length = u32::from_be_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]) as usize;
            return Ok(T::decode(&bytes[5..5 + length])?);
        }
        let trailers = String::from_utf8_lossy(&bytes).into_owned();
        anyhow::bail!("{path} failed: {status:?} {message}{trailers}")
    }
}

pub const CITIES: [&str; 16] = [
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
pub const NAMES: [&str; 16] = [
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

/// A shipment with random parties, places and freight, as a booking would come.
pub fn random_shipment() -> pb::CreateShipmentRequest {
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
