//! Couriers' rounds: staff give shipments to a courier for a day, and the courier app lists
//! the caller's round (those shipments and the pickups assigned to them on that day).

use std::collections::HashSet;
use std::sync::Arc;

use audit::{Action, Actor, AuditEntry};
use chrono::{Days, NaiveDate};
use logistics_proto::v1 as pb;

use crate::convert::{self, TimeChecks};
use crate::domain::CourierAssignment;
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::pickups::PickupQuery;
use crate::service::{ShipmentsService, id};
use crate::store::{Effects, ListQuery, Order};

/// The most shipments one call assigns.
const MAX_ASSIGNED: usize = 200;
/// The most shipments a round lists.
const MAX_ROUND: usize = 500;
/// The most pages of a courier's pickups of one day read for its round (a thousand).
const MAX_PICKUP_PAGES: usize = 10;
/// A round's day is at most this far from today either way.
const MAX_DAYS_AWAY: u64 = 366;

/// A valid assignment request: the shipments, and the round they join (None: taken off).
struct Assignment {
    shipment_ids: Vec<String>,
    round: Option<(String, String, NaiveDate)>,
}

fn assignment(
    request: &pb::AssignShipmentsToCourierRequest,
    today: NaiveDate,
) -> Result<Assignment, ShipmentError> {
    let mut v = Violations::default();
    let ids = &request.shipment_ids;
    if ids.is_empty() || ids.len() > MAX_ASSIGNED {
        v.add("shipment_ids", "must hold 1 to 200 shipment ids");
    }
    let mut seen = HashSet::new();
    let mut shipment_ids = Vec::new();
    for value in ids.iter().take(MAX_ASSIGNED) {
        match id("shipment_ids", value) {
            Ok(id) if seen.insert(id.clone()) => shipment_ids.push(id),
            Ok(_) => v.add("shipment_ids", "must not repeat a shipment"),
            Err(_) => v.add("shipment_ids", "must be shipment ids"),
        }
    }
    let round = if request.courier_id.trim().is_empty() {
        None
    } else {
        let courier = id("courier_id", &request.courier_id).map_err(|_| ());
        if courier.is_err() {
            v.add("courier_id", "is not a user id");
        }
        let email = request.courier_email.trim().to_lowercase();
        if !service_common::is_email(&email) {
            v.add("courier_email", "Invalid email address format");
        }
        let day = match v.optional_date("date", request.date.as_ref()) {
            None if request.date.is_none() => {
                v.add("date", "is required");
                None
            }
            day => day,
        };
        if let Some(day) = day
            && (day > today + Days::new(MAX_DAYS_AWAY) || day < today - Days::new(MAX_DAYS_AWAY))
        {
            v.add("date", "must be within a year of today");
        }
        match (courier, day) {
            (Ok(courier), Some(day)) => Some((courier, email, day)),
            _ => None,
        }
    };
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    Ok(Assignment {
        shipment_ids,
        round,
    })
}

fn round_summary(assignment: Option<&CourierAssignment>) -> String {
    match assignment {
        Some(a) => format!("Courier: {}, {}", a.courier_email, a.date),
        None => "Taken off the courier's round".to_owned(),
    }
}

impl ShipmentsService {
    /// Gives the shipments to a courier's round of a day, or takes them off (AssignShipmentsToCourier).
    pub(crate) async fn assign_to_courier(
        &self,
        request: &pb::AssignShipmentsToCourierRequest,
        actor: Actor,
    ) -> Result<pb::AssignShipmentsToCourierResponse, ShipmentError> {
        let now = crate::domain::now();
        let Assignment {
            shipment_ids,
            round,
        } = assignment(request, now.date_naive())?;
        // Every shipment must exist before any is assigned.
        for id in &shipment_ids {
            self.store.get(id).await?;
        }
        let assigned = round.map(|(courier_id, courier_email, date)| CourierAssignment {
            courier_id,
            courier_email,
            date,
            assigned_by: actor.email.clone(),
            assigned_at: now,
        });
        let mut shipments = Vec::with_capacity(shipment_ids.len());
        for id in &shipment_ids {
            let assigned = assigned.clone();
            let actor = actor.clone();
            let edit: crate::store::Edit = Arc::new(move |shipment| {
                let before = shipment.courier_assignment.clone();
                shipment.courier_assignment = assigned.clone();
                let summary = match (&before, &assigned) {
                    (Some(before), None) => format!(
                        "Taken off the round of {}, {}",
                        before.courier_email, before.date
                    ),
                    _ => round_summary(assigned.as_ref()),
                };
                Ok(Effects {
                    audit: vec![
                        AuditEntry::new(
                            &actor,
                            Action::ShipmentAssign,
                            &shipment.id,
                            shipment.tracking_number.as_str(),
                        )
                        .with_summary(summary),
                    ],
                    ..Effects::default()
                })
            });
            let saved = self.store.update(id, edit).await?;
            shipments.push(convert::staff_shipment_to_proto(&saved));
        }
        Ok(pb::AssignShipmentsToCourierResponse { shipments })
    }

    /// The caller's round of a day: its shipments and the open pickups assigned to them.
    pub(crate) async fn courier_stops(
        &self,
        request: &pb::ListCourierStopsRequest,
        courier_id: &str,
    ) -> Result<pb::ListCourierStopsResponse, ShipmentError> {
        let mut v = Violations::default();
        let day = v
            .optional_date("date", request.date.as_ref())
            .unwrap_or_else(|| crate::domain::now().date_naive());
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        if courier_id.is_empty() {
            return Err(FieldViolation::new("courier_id", "is required").into());
        }
        let page = self
            .store
            .list(&ListQuery {
                round: Some((courier_id.to_owned(), day)),
                order: Order::NewestFirst,
                page_size: MAX_ROUND,
                ..ListQuery::default()
            })
            .await?;
        // The courier's own pickups of the day, asked of the store: a busy day's others could
        // otherwise push them past the pages read.
        let mut pickups = Vec::new();
        let mut after = None;
        for _ in 0..MAX_PICKUP_PAGES {
            let (page, next) = self
                .store
                .list_pickups(&PickupQuery {
                    customer_id: None,
                    state: None,
                    date: Some(day),
                    area: None,
                    agent: Some(courier_id.to_owned()),
                    page_size: 100,
                    after,
                })
                .await?;
            pickups.extend(
                page.into_iter()
                    .filter(|p| p.state.open())
                    .map(|p| p.to_proto()),
            );
            match next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        Ok(pb::ListCourierStopsResponse {
            date: Some(crate::details::date(day)),
            shipments: page
                .shipments
                .iter()
                .map(convert::staff_shipment_to_proto)
                .collect(),
            pickups,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(
        ids: &[&str],
        courier: &str,
        date: Option<NaiveDate>,
    ) -> pb::AssignShipmentsToCourierRequest {
        pb::AssignShipmentsToCourierRequest {
            shipment_ids: ids.iter().map(|s| s.to_string()).collect(),
            courier_id: courier.into(),
            courier_email: "Rider@Example.com".into(),
            date: date.map(crate::details::date),
        }
    }

    fn fields(result: Result<Assignment, ShipmentError>) -> Vec<String> {
        match result {
            Err(ShipmentError::Invalid(v)) => v.iter().map(|f| f.field.clone()).collect(),
            Err(other) => panic!("{other:?}"),
            Ok(_) => Vec::new(),
        }
    }

    #[test]
    fn an_assignment_names_each_bad_field() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
        assert_eq!(
            fields(assignment(&request(&[], "u1", Some(today)), today)),
            ["shipment_ids"]
        );
        assert_eq!(
            fields(assignment(
                &request(&["a1b2c3", "a1b2c3"], "u1", Some(today)),
                today
            )),
            ["shipment_ids"]
        );
        assert_eq!(
            fields(assignment(&request(&["a1b2c3"], "u1", None), today)),
            ["date"]
        );
        let far = today + Days::new(400);
        assert_eq!(
            fields(assignment(&request(&["a1b2c3"], "u1", Some(far)), today)),
            ["date"]
        );
        assert_eq!(
            fields(assignment(&request(&["a1b2c3"], "a b", Some(today)), today)),
            ["courier_id"]
        );
        let many: Vec<String> = (0..201).map(|i| format!("id{i:04}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            fields(assignment(&request(&many, "u1", Some(today)), today)),
            ["shipment_ids"]
        );
    }

    #[test]
    fn an_empty_courier_takes_shipments_off_and_an_email_is_folded() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
        let off = assignment(&request(&["a1b2c3"], "", None), today).unwrap();
        assert!(off.round.is_none());
        let on = assignment(&request(&["a1b2c3"], "u1", Some(today)), today).unwrap();
        assert_eq!(
            on.round,
            Some(("u1".into(), "rider@example.com".into(), today))
        );
    }
}
