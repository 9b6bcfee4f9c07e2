//! A change's webhook events are written in the change's own transaction, on both stores: a
//! refused change leaves none, a delete leaves its snapshot.

use crate::common;

use std::sync::Arc;

use outbox::webhooks::{Endpoint, EventType, WebhookStore};
use shipments::store::{DeleteRecord, Effects, ShipmentStore};

use common::shipment;

async fn events_share_the_changes_transaction(
    store: Arc<dyn ShipmentStore>,
    webhooks: Arc<dyn WebhookStore>,
) {
    let (endpoint, _) = Endpoint::new(
        "https://erp.example.com/in",
        EventType::SUBSCRIBABLE.to_vec(),
        "",
        "",
        shipments::domain::now(),
    );
    webhooks.create_endpoint(&endpoint).await.unwrap();
    let types = || {
        let webhooks = webhooks.clone();
        let id = endpoint.id.clone();
        async move {
            let page = webhooks.deliveries(&id, 50, None).await.unwrap();
            page.deliveries
                .iter()
                .rev()
                .map(|d| d.event_type.as_str())
                .collect::<Vec<_>>()
        }
    };
    let first = shipment("Ada", "Accra");
    let created = Effects {
        events: shipments::webhooks::created(&first, shipments::domain::now()),
        ..Effects::default()
    };
    store.insert(&first, &created).await.unwrap();
    assert_eq!(types().await, ["shipment.created"]);

    let mut twin = shipment("Bea", "Lagos");
    twin.tracking_number = first.tracking_number.clone();
    let refused = Effects {
        events: shipments::webhooks::created(&twin, shipments::domain::now()),
        ..Effects::default()
    };
    assert!(store.insert(&twin, &refused).await.is_err());
    assert_eq!(
        types().await,
        ["shipment.created"],
        "a refused insert sends nothing"
    );

    let record: DeleteRecord = Arc::new(|s| Effects {
        events: shipments::webhooks::deleted(s, shipments::domain::now()),
        ..Effects::default()
    });
    store.delete(&first.id, record).await.unwrap();
    assert_eq!(types().await, ["shipment.created", "shipment.deleted"]);
    let deleted = webhooks.deliveries(&endpoint.id, 1, None).await.unwrap();
    let payload: serde_json::Value = serde_json::from_str(&deleted.deliveries[0].payload).unwrap();
    assert_eq!(
        payload["data"]["shipment"]["trackingNumber"],
        first.tracking_number.as_str()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_events_share_the_changes_transaction() {
    let (store, dir) = common::sqlite_store();
    let webhooks = outbox::webhooks::SqliteWebhooks::open(dir.path()).unwrap();
    events_share_the_changes_transaction(store, Arc::new(webhooks)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_events_share_the_changes_transaction() {
    let Some((uri, database)) = test_servers::mongodb() else {
        return;
    };
    let store = shipments::store::MongoShipmentStore::connect(&uri, &database)
        .await
        .unwrap();
    let webhooks = outbox::webhooks::MongoWebhooks::connect(&uri, &database)
        .await
        .unwrap();
    events_share_the_changes_transaction(Arc::new(store), Arc::new(webhooks)).await;
}
