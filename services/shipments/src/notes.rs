//! Staff's internal notes on a shipment: kept apart from the shipment, so no public answer,
//! e-mail, customer's view, export or webhook, all made from the shipment, can carry them.

use chrono::{DateTime, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::timestamp;

use crate::error::{FieldViolation, ShipmentError};

/// Most notes one shipment keeps, and most characters in one.
pub const MAX_NOTES: u64 = 500;
pub const MAX_TEXT: usize = 2000;

/// The refusal of a note beyond MAX_NOTES, the same from every store.
pub fn too_many() -> ShipmentError {
    ShipmentError::Exhausted(format!("This shipment has {MAX_NOTES} notes already"))
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShipmentNote {
    pub id: String,
    pub shipment_id: String,
    pub text: String,
    pub author_id: String,
    pub author_email: String,
    #[serde(with = "service_common::utc_micros")]
    pub created_at: DateTime<Utc>,
}

impl ShipmentNote {
    pub fn to_proto(&self) -> pb::ShipmentNote {
        pb::ShipmentNote {
            id: self.id.clone(),
            shipment_id: self.shipment_id.clone(),
            text: self.text.clone(),
            author_id: self.author_id.clone(),
            author_email: self.author_email.clone(),
            create_time: Some(timestamp::to_proto(self.created_at)),
        }
    }
}

/// A note's text: 1..2,000 characters, its line breaks kept.
pub fn text(value: &str) -> Result<String, FieldViolation> {
    TextRule::paragraph(MAX_TEXT)
        .check(value)
        .map_err(|description| FieldViolation::new("text", description))
}
