//! Sessions and rate limits: one contract for the embedded (SQLite) or in-process and the
//! Redis stores, and recovery after a Redis restart.

use crate::common;

use std::time::Duration;

use common::RedisServer;
use gateway::limits::RateLimit;
use gateway::session::{Lifetime, Session, SessionStore};

const LIFETIME: Lifetime = Lifetime {
    idle: Duration::from_secs(600),
    absolute: Duration::from_secs(3600),
};

fn session() -> Session {
    Session::new(
        "u1".into(),
        "ada@example.com".into(),
        "Ada".into(),
        service_auth::Role::Admin,
        0,
    )
}

async fn redis_connection(server: &RedisServer) -> redis::aio::ConnectionManager {
    redis::aio::ConnectionManager::new(redis::Client::open(server.url()).unwrap())
        .await
        .unwrap()
}

async fn sessions_live_until_deleted_or_expired(store_of: impl Fn(Lifetime) -> SessionStore) {
    let store = store_of(LIFETIME);
    let s = session();
    store.create(&s).await.unwrap();
    assert_eq!(store.get(&s.id).await.unwrap(), Some(s.clone()));
    assert_eq!(store.get("unknown").await.unwrap(), None);
    store.delete(&s.id).await.unwrap();
    assert_eq!(store.get(&s.id).await.unwrap(), None);

    // Past the absolute expiry, a session is gone however recently it was used.
    let store = store_of(Lifetime {
        idle: Duration::from_secs(600),
        absolute: Duration::from_secs(60),
    });
    let mut old = session();
    old.created_at -= 61;
    store.create(&old).await.unwrap();
    assert_eq!(store.get(&old.id).await.unwrap(), None);

    // A user's sessions are listed until they end; each use pushes the idle expiry back.
    let store = store_of(Lifetime {
        // Whole seconds: Redis counts in them.
        idle: Duration::from_secs(2),
        absolute: Duration::from_secs(60),
    });
    let (used, unused, other) = (session(), session(), session());
    let other = Session {
        user_id: "u2".into(),
        ..other
    };
    for s in [&used, &unused, &other] {
        store.create(s).await.unwrap();
    }
    let mut ids: Vec<String> = store
        .of_user("u1")
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    ids.sort();
    let mut expected = vec![used.id.clone(), unused.id.clone()];
    expected.sort();
    assert_eq!(ids, expected);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(store.get(&used.id).await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(
        store.get(&used.id).await.unwrap().is_some(),
        "used within its idle time"
    );
    assert_eq!(store.get(&unused.id).await.unwrap(), None, "idle too long");
    let listed = store.of_user("u1").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, used.id);
}

async fn limits_allow_the_limit_then_refuse(limit_of: impl Fn(&'static str) -> RateLimit) {
    let limit = limit_of("contract");
    for _ in 0..3 {
        assert!(limit.hit("1.2.3.4").await.unwrap());
    }
    assert!(limit.exhausted("1.2.3.4").await.unwrap());
    assert!(!limit.hit("1.2.3.4").await.unwrap());
    assert!(
        limit.hit("5.6.7.8").await.unwrap(),
        "each key counts on its own"
    );
    assert!(!limit.exhausted("9.9.9.9").await.unwrap());
}

#[tokio::test]
async fn embedded_sessions() {
    let data = tempfile::tempdir().unwrap();
    sessions_live_until_deleted_or_expired(|lifetime| {
        SessionStore::embedded(data.path(), lifetime).unwrap()
    })
    .await;
}

#[tokio::test]
async fn redis_sessions() {
    let server = RedisServer::start().await;
    let connection = redis_connection(&server).await;
    sessions_live_until_deleted_or_expired(|lifetime| {
        SessionStore::redis(connection.clone(), lifetime)
    })
    .await;
}

#[tokio::test]
async fn in_process_limits() {
    limits_allow_the_limit_then_refuse(|name| {
        RateLimit::in_process(name, 3, Duration::from_secs(60))
    })
    .await;
}

#[tokio::test]
async fn embedded_limits_outlive_a_restart() {
    let data = tempfile::tempdir().unwrap();
    limits_allow_the_limit_then_refuse(|name| {
        RateLimit::embedded(name, 3, Duration::from_secs(60), data.path()).unwrap()
    })
    .await;
    let before = RateLimit::embedded("kept", 2, Duration::from_secs(60), data.path()).unwrap();
    assert!(before.hit("account\ndevice").await.unwrap());
    let after = RateLimit::embedded("kept", 2, Duration::from_secs(60), data.path()).unwrap();
    assert_eq!(after.count("account\ndevice").await.unwrap(), 1);
    assert_eq!(
        RateLimit::embedded("other", 2, Duration::from_secs(60), data.path())
            .unwrap()
            .count("account\ndevice")
            .await
            .unwrap(),
        0,
        "each limit counts on its own"
    );
    // A window that ended starts again.
    let short = RateLimit::embedded("short", 1, Duration::from_millis(300), data.path()).unwrap();
    assert!(short.hit("k").await.unwrap());
    assert!(!short.hit("k").await.unwrap());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(short.count("k").await.unwrap(), 0);
    assert!(short.hit("k").await.unwrap());
}

#[tokio::test]
async fn redis_limits_are_shared_by_every_gateway_replica() {
    let server = RedisServer::start().await;
    let (a, b) = (
        redis_connection(&server).await,
        redis_connection(&server).await,
    );
    limits_allow_the_limit_then_refuse(|name| {
        RateLimit::redis(name, 3, Duration::from_secs(60), a.clone())
    })
    .await;
    let replica_a = RateLimit::redis("shared", 2, Duration::from_secs(60), a);
    let replica_b = RateLimit::redis("shared", 2, Duration::from_secs(60), b);
    assert!(replica_a.hit("ip").await.unwrap());
    assert!(replica_b.hit("ip").await.unwrap());
    assert!(
        !replica_a.hit("ip").await.unwrap(),
        "the two replicas counted together"
    );
}

#[tokio::test]
async fn the_redis_connection_survives_a_redis_restart() {
    let mut server = RedisServer::start().await;
    let store = SessionStore::redis(redis_connection(&server).await, LIFETIME);
    store.create(&session()).await.unwrap();
    server.stop();
    assert!(
        store.get("any").await.is_err(),
        "an outage is an error, not a missing session"
    );
    server.restart().await;
    // The manager reconnects by itself; the first calls after the restart may still fail.
    let mut recovered = false;
    for _ in 0..50 {
        if store.create(&session()).await.is_ok() {
            recovered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        recovered,
        "the session store works again after Redis came back"
    );
    let s = session();
    store.create(&s).await.unwrap();
    assert_eq!(store.get(&s.id).await.unwrap(), Some(s));
}
