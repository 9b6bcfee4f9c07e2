//! Every replica gets traffic: two shipments servers behind one name (as a headless Service's
//! DNS name lists every ready pod) both serve a share of the gateway's lookups, and when one is
//! killed no call that starts afterwards fails.

use crate::common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use futures::future::BoxFuture;
use gateway::upstream::{self, Resolve, Upstream};
use logistics_proto::v1 as pb;
use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use service_auth::{Bearer, TokenKey};
use service_common::Built;
use shipments::store::{ShipmentStore, SqliteShipmentStore};

/// A shipments server that counts the calls it answers.
#[derive(Clone)]
struct Counting<S> {
    inner: S,
    calls: Arc<AtomicUsize>,
}

impl<S: tonic::server::NamedService> tonic::server::NamedService for Counting<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> tower::Service<http::Request<B>> for Counting<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> S::Future {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.call(request)
    }
}

/// A replica on its own runtime, as a process of its own would be; killing it drops every
/// connection at once.
struct Replica {
    runtime: tokio::runtime::Runtime,
    calls: Arc<AtomicUsize>,
}

impl Replica {
    fn start(addr: SocketAddr, data: &std::path::Path, tokens: &TokenKey) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = std::net::TcpListener::bind(addr).unwrap();
        listener.set_nonblocking(true).unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let (data, tokens, counter) = (data.to_path_buf(), tokens.clone(), calls.clone());
        runtime.spawn(async move {
            let built = shipments::build(
                &service_common::StoreConfig::Embedded { data_dir: data },
                &service_common::settings::defaults(),
                &service_common::settings::defaults(),
                tokens,
            )
            .await
            .unwrap();
            let built = Built {
                server: Counting {
                    inner: built.server,
                    calls: counter,
                },
                tasks: built.tasks,
                problem: built.problem,
                services: built.services,
            };
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            service_common::serve(listener, built, std::future::pending()).await
        });
        Self { runtime, calls }
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::Relaxed)
    }

    fn kill(self) {
        self.runtime.shutdown_background();
    }
}

/// A service name that resolves to these addresses, as DNS lists every ready pod.
struct Listed(Vec<SocketAddr>);

impl Resolve for Listed {
    fn resolve(
        &self,
        _host: &str,
        _port: u16,
    ) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
        let found = self.0.clone();
        Box::pin(async move { Ok(found) })
    }
}

async fn lookup(
    client: &mut ShipmentServiceClient<
        tonic::service::interceptor::InterceptedService<Upstream, Bearer>,
    >,
    number: &str,
) -> Result<(), tonic::Status> {
    client
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: number.to_owned(),
            ..Default::default()
        })
        .await
        .map(drop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_spread_over_both_replicas_and_survive_one_being_killed() {
    let data = tempfile::tempdir().unwrap();
    let store: Arc<dyn ShipmentStore> =
        Arc::new(SqliteShipmentStore::open(&data.path().join("shipments.sqlite3")).unwrap());
    let number = common::wire::demo_shipment(&store)
        .await
        .tracking_number
        .to_string();
    let tokens = TokenKey::generate();
    // The same port on two loopback addresses, as two pods listen on one port.
    let first: SocketAddr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let second = SocketAddr::from(([127, 0, 0, 2], first.port()));
    let a = Replica::start(first, data.path(), &tokens);
    let b = Replica::start(second, data.path(), &tokens);
    let upstream = upstream::remote_with(
        "shipments",
        &format!("http://shipments.test:{}", first.port()),
        Arc::new(Listed(vec![first, second])),
    )
    .unwrap();
    let mut client = ShipmentServiceClient::with_interceptor(
        upstream,
        Bearer::new(&service_auth::tool_token(&tokens)),
    );

    for _ in 0..100 {
        lookup(&mut client, &number).await.unwrap();
    }
    let (from_a, from_b) = (a.calls(), b.calls());
    assert!(
        from_a >= 30 && from_b >= 30,
        "each replica serves a share: {from_a} and {from_b} of 100"
    );

    // Lookups from four callers at once; one replica is killed while they run.
    let callers: Vec<_> = (0..4)
        .map(|_| {
            let (mut client, number) = (client.clone(), number.clone());
            tokio::spawn(async move {
                let mut outcomes = Vec::new();
                for _ in 0..150 {
                    let at = Instant::now();
                    outcomes.push((at, lookup(&mut client, &number).await));
                }
                outcomes
            })
        })
        .collect();
    while a.calls() + b.calls() < from_a + from_b + 100 {
        tokio::task::yield_now().await;
    }
    b.kill();
    let killed_at = Instant::now();
    let a_before = a.calls();
    let mut after_kill = 0;
    for caller in callers {
        for (at, outcome) in caller.await.unwrap() {
            if at > killed_at {
                after_kill += 1;
                if let Err(status) = outcome {
                    panic!(
                        "a lookup started {:?} after the kill failed: {status:?}",
                        at - killed_at
                    );
                }
            }
        }
    }
    assert!(after_kill > 100, "{after_kill} lookups after the kill");
    assert!(a.calls() > a_before, "the other replica took them");
    a.kill();
}

/// A service that closes each connection after a few milliseconds, as one does when it shuts
/// down: a call that meets the closing connection is sent again only when the service never
/// took it, so no call runs twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_that_cannot_be_repeated_run_at_most_once_while_connections_close() {
    use tonic_health::pb::health_client::HealthClient;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter
        .set_service_status("", tonic_health::ServingStatus::Serving)
        .await;
    let calls = Arc::new(AtomicUsize::new(0));
    let counting = Counting {
        inner: health,
        calls: calls.clone(),
    };
    tokio::spawn(
        tonic::transport::Server::builder()
            .max_connection_age(std::time::Duration::from_millis(5))
            .add_service(counting)
            .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener)),
    );
    let upstream = upstream::remote_with(
        "health",
        &format!("http://health.test:{}", addr.port()),
        Arc::new(Listed(vec![addr])),
    )
    .unwrap();
    // The health check is no method of the product's, so the gateway treats it as a write.
    assert!(service_auth::access::rule("/grpc.health.v1.Health/Check").is_none());

    let callers: Vec<_> = (0..4)
        .map(|_| {
            let mut client = HealthClient::new(upstream.clone());
            tokio::spawn(async move {
                let mut failed = Vec::new();
                for _ in 0..250 {
                    if let Err(status) = client
                        .check(tonic_health::pb::HealthCheckRequest::default())
                        .await
                    {
                        failed.push(status.message().to_owned());
                    }
                }
                failed
            })
        })
        .collect();
    let mut failed = Vec::new();
    for caller in callers {
        failed.extend(caller.await.unwrap());
    }
    let ran = calls.load(Ordering::Relaxed);
    assert!(ran <= 1000, "{ran} calls ran for 1000 sent: some ran twice");
    assert!(
        1000 - failed.len() > 500,
        "{} of 1000 calls failed, the first with {:?}",
        failed.len(),
        failed.first()
    );
}
