//! Pickups: a customer asks for its parcels to be collected on an open day, within a time
//! window; staff assign, confirm, collect (its shipments move to in transit) or fail it.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::{paging, timestamp};

use crate::convert::TimeChecks;
use crate::details::{date, hh_mm, time_of_day};
use crate::error::{ShipmentError, Violations};

/// Most shipments one pickup covers, and most closed dates the settings keep.
pub const MAX_SHIPMENTS: usize = 100;
pub const MAX_CLOSED_DATES: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PickupState {
    Requested,
    Confirmed,
    Collected,
    Failed,
}

impl PickupState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::Confirmed => "confirmed",
            Self::Collected => "collected",
            Self::Failed => "failed",
        }
    }

    fn to_proto(self) -> pb::PickupState {
        match self {
            Self::Requested => pb::PickupState::Requested,
            Self::Confirmed => pb::PickupState::Confirmed,
            Self::Collected => pb::PickupState::Collected,
            Self::Failed => pb::PickupState::Failed,
        }
    }

    pub fn from_proto(field: &str, value: i32, v: &mut Violations) -> Option<Self> {
        match pb::PickupState::try_from(value) {
            Ok(pb::PickupState::Requested) => Some(Self::Requested),
            Ok(pb::PickupState::Confirmed) => Some(Self::Confirmed),
            Ok(pb::PickupState::Collected) => Some(Self::Collected),
            Ok(pb::PickupState::Failed) => Some(Self::Failed),
            Ok(pb::PickupState::Unspecified) => None,
            Err(_) => {
                v.add(field, "must be REQUESTED, CONFIRMED, COLLECTED or FAILED");
                None
            }
        }
    }

    /// Still to be done: it may be assigned, and collected or failed.
    pub fn open(self) -> bool {
        matches!(self, Self::Requested | Self::Confirmed)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pickup {
    pub id: String,
    pub customer_id: String,
    pub customer_name: String,
    pub address: String,
    pub area: String,
    pub date: NaiveDate,
    #[serde(with = "hh_mm")]
    pub window_start: NaiveTime,
    #[serde(with = "hh_mm")]
    pub window_end: NaiveTime,
    pub parcel_count: u32,
    pub shipment_ids: Vec<String>,
    pub notes: String,
    pub state: PickupState,
    #[serde(default)]
    pub agent_id: String,
    #[serde(default)]
    pub agent_email: String,
    #[serde(default)]
    pub failure_reason: String,
    /// The e-mail of the user who asked for it.
    pub requested_by: String,
    /// The language of that user's e-mails.
    #[serde(default)]
    pub language: outbox::language::Language,
    #[serde(with = "service_common::utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "service_common::utc_micros")]
    pub updated_at: DateTime<Utc>,
}

impl Pickup {
    pub fn to_proto(&self) -> pb::Pickup {
        pb::Pickup {
            id: self.id.clone(),
            customer_id: self.customer_id.clone(),
            customer_name: self.customer_name.clone(),
            address: self.address.clone(),
            area: self.area.clone(),
            date: Some(date(self.date)),
            window_start: Some(time_of_day(self.window_start)),
            window_end: Some(time_of_day(self.window_end)),
            parcel_count: self.parcel_count as i32,
            shipment_ids: self.shipment_ids.clone(),
            notes: self.notes.clone(),
            state: self.state.to_proto().into(),
            agent_id: self.agent_id.clone(),
            agent_email: self.agent_email.clone(),
            failure_reason: self.failure_reason.clone(),
            requested_by: self.requested_by.clone(),
            language_code: self.language.code().to_owned(),
            create_time: Some(timestamp::to_proto(self.created_at)),
            update_time: Some(timestamp::to_proto(self.updated_at)),
        }
    }

    /// The folded area the staff queue filters by.
    pub fn area_key(&self) -> String {
        crate::search::fold(self.area.trim())
    }
}

/// When pickups may be asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PickupSettings {
    #[serde(with = "hh_mm")]
    pub same_day_cutoff: NaiveTime,
    /// 1 (Monday) .. 7 (Sunday).
    pub closed_weekdays: Vec<u32>,
    pub closed_dates: Vec<NaiveDate>,
}

impl Default for PickupSettings {
    /// Same-day pickups until noon; closed on Sundays.
    fn default() -> Self {
        Self {
            same_day_cutoff: NaiveTime::from_hms_opt(12, 0, 0).expect("noon"),
            closed_weekdays: vec![7],
            closed_dates: Vec::new(),
        }
    }
}

impl PickupSettings {
    pub fn to_proto(&self) -> pb::PickupSettings {
        pb::PickupSettings {
            same_day_cutoff: Some(time_of_day(self.same_day_cutoff)),
            closed_weekdays: self.closed_weekdays.iter().map(|d| *d as i32).collect(),
            closed_dates: self.closed_dates.iter().copied().map(date).collect(),
        }
    }

    pub fn from_proto(input: &pb::PickupSettings) -> Result<Self, ShipmentError> {
        let mut v = Violations::default();
        let cutoff = v
            .optional_time("settings.same_day_cutoff", input.same_day_cutoff.as_ref())
            .unwrap_or(NaiveTime::MIN);
        let mut weekdays = Vec::new();
        for (i, day) in input.closed_weekdays.iter().enumerate() {
            match u32::try_from(*day) {
                Ok(day @ 1..=7) if !weekdays.contains(&day) => weekdays.push(day),
                Ok(1..=7) => {}
                _ => v.add(
                    format!("settings.closed_weekdays[{i}]"),
                    "must be 1 (Monday) to 7 (Sunday)",
                ),
            }
        }
        if weekdays.len() == 7 {
            v.add("settings.closed_weekdays", "at least one day must be open");
        }
        if input.closed_dates.len() > MAX_CLOSED_DATES {
            v.add(
                "settings.closed_dates",
                format!("at most {MAX_CLOSED_DATES} dates"),
            );
        }
        let mut dates: Vec<NaiveDate> = input
            .closed_dates
            .iter()
            .take(MAX_CLOSED_DATES)
            .enumerate()
            .filter_map(|(i, d)| v.optional_date(&format!("settings.closed_dates[{i}]"), Some(d)))
            .collect();
        dates.sort();
        dates.dedup();
        weekdays.sort();
        v.into_result(Self {
            same_day_cutoff: cutoff,
            closed_weekdays: weekdays,
            closed_dates: dates,
        })
        .map_err(ShipmentError::Invalid)
    }

    /// Why `day` cannot have a pickup asked for at `now`, if it cannot.
    pub fn refusal(&self, day: NaiveDate, now: DateTime<Utc>) -> Option<&'static str> {
        let today = now.date_naive();
        if day < today {
            return Some("must be today or later");
        }
        if day == today && now.time() >= self.same_day_cutoff {
            return Some("is past today's cut-off time: choose a later day");
        }
        if self
            .closed_weekdays
            .contains(&day.weekday().number_from_monday())
            || self.closed_dates.contains(&day)
        {
            return Some("is a closed day: choose another day");
        }
        if day > today + chrono::Days::new(90) {
            return Some("must be within 90 days");
        }
        None
    }
}

/// What a customer's user typed, checked against the settings; the shipments are checked
/// to be the customer's by the caller.
pub struct Request {
    pub address: String,
    pub area: String,
    pub date: NaiveDate,
    pub window: (NaiveTime, NaiveTime),
    pub parcel_count: u32,
    pub shipment_ids: Vec<String>,
    pub notes: String,
}

pub fn request(
    input: &pb::Pickup,
    settings: &PickupSettings,
    now: DateTime<Utc>,
) -> Result<Request, ShipmentError> {
    let mut v = Violations::default();
    let address = v.text("pickup.address", &input.address, TextRule::paragraph(300));
    let area = v.text("pickup.area", &input.area, TextRule::line(100));
    let date = v.optional_date("pickup.date", input.date.as_ref());
    match date {
        None if input.date.is_none() => v.add("pickup.date", "is required"),
        Some(day) => {
            if let Some(refusal) = settings.refusal(day, now) {
                v.add("pickup.date", refusal);
            }
        }
        None => {}
    }
    let start = v.optional_time("pickup.window_start", input.window_start.as_ref());
    let end = v.optional_time("pickup.window_end", input.window_end.as_ref());
    match (start, end) {
        (Some(start), Some(end)) if end <= start => {
            v.add("pickup.window_end", "must be after the window's start")
        }
        (None, _) if input.window_start.is_none() => v.add("pickup.window_start", "is required"),
        (_, None) if input.window_end.is_none() => v.add("pickup.window_end", "is required"),
        _ => {}
    }
    let parcel_count = match u32::try_from(input.parcel_count) {
        Ok(n @ 1..=1000) => n,
        _ => {
            v.add("pickup.parcel_count", "must be 1 to 1,000");
            1
        }
    };
    if input.shipment_ids.len() > MAX_SHIPMENTS {
        v.add(
            "pickup.shipment_ids",
            format!("at most {MAX_SHIPMENTS} shipments"),
        );
    }
    let mut shipment_ids = Vec::new();
    for (i, id) in input.shipment_ids.iter().take(MAX_SHIPMENTS).enumerate() {
        let id = id.trim();
        if id.is_empty() || !service_common::could_be_id(id) {
            v.add(format!("pickup.shipment_ids[{i}]"), "Shipment not found");
        } else if !shipment_ids.iter().any(|s| s == id) {
            shipment_ids.push(id.to_owned());
        }
    }
    let notes = v.text(
        "pickup.notes",
        &input.notes,
        TextRule::paragraph(1000).optional(),
    );
    let (Some(date), Some(start), Some(end)) = (date, start, end) else {
        if v.is_empty() {
            v.add("pickup.date", "is required");
        }
        return Err(ShipmentError::Invalid(v));
    };
    v.into_result(Request {
        address,
        area,
        date,
        window: (start, end),
        parcel_count,
        shipment_ids,
        notes,
    })
    .map_err(ShipmentError::Invalid)
}

/// A page of pickups: one customer's newest first, or the staff queue by day.
#[derive(Clone, Debug, Default)]
pub struct PickupQuery {
    pub customer_id: Option<String>,
    pub state: Option<PickupState>,
    pub date: Option<NaiveDate>,
    /// Folded.
    pub area: Option<String>,
    /// The courier (user id) they are assigned to.
    pub agent: Option<String>,
    pub page_size: usize,
    pub after: Option<String>,
}

pub fn query(request: &pb::ListPickupsRequest) -> Result<PickupQuery, ShipmentError> {
    let mut v = Violations::default();
    let page_size = v.page_size(request.page_size);
    let state = PickupState::from_proto("state", request.state, &mut v);
    let date = v.optional_date("date", request.date.as_ref());
    let area = crate::search::fold(
        v.text("area", &request.area, TextRule::line(100).optional())
            .trim(),
    );
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    Ok(PickupQuery {
        customer_id: None,
        state,
        date,
        area: (!area.is_empty()).then_some(area),
        agent: None,
        page_size,
        after: paging::decode(&request.page_token)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn closed_days_past_days_and_the_cut_off_refuse_a_day() {
        let settings = PickupSettings::default();
        // Friday 2026-11-27, 09:00 and 13:00 UTC; noon is the cut-off, Sunday is closed.
        let morning = at("2026-11-27T09:00:00Z");
        let afternoon = at("2026-11-27T13:00:00Z");
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        assert_eq!(settings.refusal(day(27), morning), None);
        assert!(
            settings
                .refusal(day(27), afternoon)
                .unwrap()
                .contains("cut-off")
        );
        assert_eq!(settings.refusal(day(28), afternoon), None);
        assert!(
            settings
                .refusal(day(29), afternoon)
                .unwrap()
                .contains("closed")
        );
        assert!(
            settings
                .refusal(day(26), morning)
                .unwrap()
                .contains("today or later")
        );
        let holiday = PickupSettings {
            closed_dates: vec![day(30)],
            ..PickupSettings::default()
        };
        assert!(holiday.refusal(day(30), morning).is_some());
    }
}
