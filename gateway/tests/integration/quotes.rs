//! Rate cards and quotes through the gateway, as JSON over HTTP, in both modes: a visitor's
//! quote from the sample public card, staff editing a card (versions, a conflicting save, the
//! audit log, CSV out and back in), a customer's discount card, and a booking that keeps the
//! quoted price while a heavier parcel, another customer and a forged token are refused.

use serde_json::{Value, json};

use crate::api_keys::{customer_admin, customer_admin_of, signed_in};
use crate::common;
use crate::connect_json::{booking, post};
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site};

fn lagos_to_rotterdam(weight_kg: f64) -> Value {
    json!({
        "origin": {"country": "ng", "city": " Lagos "},
        "destination": {"country": "NL", "city": "Rotterdam"},
        "parcels": [{"weightKg": weight_kg, "lengthCm": 40, "widthCm": 30, "heightCm": 20, "count": 1}]
    })
}

fn price(option: &Value) -> i64 {
    option["priceMinor"].as_str().unwrap().parse().unwrap()
}

fn option<'a>(quote: &'a Value, service: &str) -> &'a Value {
    quote["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["serviceCode"] == service)
        .unwrap_or_else(|| panic!("{service} in {quote}"))
}

fn violations(answer: &Value) -> Vec<String> {
    answer["details"][0]["debug"]["fieldViolations"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|v| v["field"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

async fn quotes_price_from_the_cards_staff_keep(site: &Site) {
    // A visitor: every service between the two places, cheapest first, with a token.
    let (status, quote, _) = post(
        site,
        "QuoteService/CreateQuote",
        &lagos_to_rotterdam(5.0).to_string(),
        "",
    )
    .await;
    assert_eq!(status, 200, "{quote}");
    let prices: Vec<i64> = quote["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(price)
        .collect();
    assert!(prices.len() >= 3 && prices.is_sorted(), "{prices:?}");
    assert!(quote["id"].as_str().unwrap().starts_with("Q-"));
    assert_eq!(
        quote["request"]["origin"],
        json!({"country": "NG", "city": "Lagos"})
    );
    let express = option(&quote, "EXPRESS_AIR");
    assert_eq!(express["chargeableWeightKg"], 5.0);
    let charges: i64 = express["charges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["amountMinor"].as_str().unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(charges, price(express), "the charges add up to the price");

    // Bad input names its fields; nothing is priced.
    let (status, refused, _) = post(
        site,
        "QuoteService/CreateQuote",
        &json!({"origin": {"country": "N1"}, "destination": {"country": "NL"},
                "parcels": [{"weightKg": 0, "lengthCm": 10, "count": 1}]})
        .to_string(),
        "",
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        violations(&refused),
        [
            "origin.country",
            "parcels[0].weight_kg",
            "parcels[0].width_cm",
            "parcels[0].height_cm"
        ]
    );

    // Only staff holding rates.manage see the cards.
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let (status, _, _) = post(site, "RateCardService/ListRateCards", "{}", &clerk).await;
    assert_eq!(status, 403);
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (status, mut card, _) = post(
        site,
        "RateCardService/GetRateCard",
        r#"{"id": "public"}"#,
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{card}");
    let version = card["version"].as_i64().unwrap();

    // Express Air from West Africa to Europe, per kg above 5 kg: 20.00 a kg.
    let lane = card["lanes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|l| {
            l["serviceCode"] == "EXPRESS_AIR"
                && l["originZone"] == "WA"
                && l["destinationZone"] == "EU"
        })
        .unwrap();
    lane["weightBreaks"][2]["priceMinor"] = json!("2000");
    lane["fuelSurchargeBasisPoints"] = json!(0);
    let (status, saved, _) = post(
        site,
        "RateCardService/UpdateRateCard",
        &json!({"rateCard": card}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["version"], version + 1);
    assert_eq!(saved["updatedBy"], ADMIN_EMAIL);
    // The same version again is someone else's change lost: refused, nothing written.
    let (status, conflict, _) = post(
        site,
        "RateCardService/UpdateRateCard",
        &json!({"rateCard": card}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(
        (status, conflict["code"].as_str()),
        (409, Some("aborted")),
        "{conflict}"
    );
    // A lane naming a zone the card lacks is named by its path.
    let mut broken = saved.clone();
    broken["lanes"][0]["originZone"] = json!("MARS");
    let (status, refused, _) = post(
        site,
        "RateCardService/UpdateRateCard",
        &json!({"rateCard": broken}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(violations(&refused), ["rate_card.lanes[0].origin_zone"]);

    // 12 kg chargeable at 20.00 a kg, no fuel; the quote names the version it used.
    let (_, quote, _) = post(
        site,
        "QuoteService/CreateQuote",
        &lagos_to_rotterdam(12.0).to_string(),
        "",
    )
    .await;
    assert_eq!(quote["rateCardVersion"], version + 1);
    assert_eq!(price(option(&quote, "EXPRESS_AIR")), 24_000);

    let (status, audit, _) = post(
        site,
        "AuditService/ListAuditEntries",
        r#"{"action": "rate_card.update"}"#,
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{audit}");
    assert_eq!(
        audit["entries"][0]["targetName"], "Public rate card",
        "{audit}"
    );

    // CSV out and back in gives the same card; a bad cell is named by row and column.
    let (status, export, _) = post(
        site,
        "RateCardService/ExportRateCard",
        r#"{"id": "public"}"#,
        &admin,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        export["fileName"],
        format!("rate-card-public-v{}.csv", version + 1)
    );
    let csv = export["csv"].as_str().unwrap();
    let (status, parsed, _) = post(
        site,
        "RateCardService/ParseRateCardCsv",
        &json!({"id": "public", "version": version + 1, "csv": csv}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{parsed}");
    assert_eq!(parsed["lanes"], saved["lanes"]);
    assert_eq!(parsed["zones"], saved["zones"]);
    let bad = csv.replacen(",20.00,yes,", ",abc,yes,", 1);
    let (status, refused, _) = post(
        site,
        "RateCardService/ParseRateCardCsv",
        &json!({"id": "public", "version": 1, "csv": bad}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    let named = violations(&refused);
    assert!(
        named.len() == 1 && named[0].starts_with("row ") && named[0].ends_with(", price"),
        "{named:?}"
    );

    // A customer with 10% off the public card.
    let (acme, acme_id) = customer_admin_of(site, &admin, "Acme Quotes").await;
    let (status, discount, _) = post(
        site,
        "RateCardService/UpdateRateCard",
        &json!({"rateCard": {"id": acme_id, "discountBasisPoints": 1000}}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{discount}");
    assert_eq!(
        (
            discount["version"].as_i64(),
            discount["customerName"].as_str()
        ),
        (Some(1), Some("Acme Quotes"))
    );
    let (status, list, _) = post(site, "RateCardService/ListRateCards", "{}", &admin).await;
    assert_eq!(status, 200);
    assert_eq!(list["rateCards"][0]["id"], "public");
    assert!(
        list["rateCards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == acme_id)
    );

    let (status, own, _) = post(
        site,
        "CustomerPortalService/CreateQuote",
        &lagos_to_rotterdam(12.0).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{own}");
    let express = option(&own, "EXPRESS_AIR");
    assert_eq!(price(express), 24_000 - 2_400);
    assert_eq!(
        express["charges"].as_array().unwrap().last().unwrap()["kind"],
        "QUOTE_CHARGE_KIND_DISCOUNT"
    );

    // Booking from the quote keeps its price, whatever the request says of it.
    let mut shipment = booking();
    shipment["shipment"]["packages"][0]["weightKg"] = json!(12.0);
    shipment["shipment"]["totalFreightCents"] = json!("1");
    shipment["quoteToken"] = own["token"].clone();
    shipment["quoteServiceCode"] = json!("EXPRESS_AIR");
    let (status, booked, _) = post(
        site,
        "CustomerPortalService/CreateShipment",
        &shipment.to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{booked}");
    assert_eq!(booked["totalFreightCents"], "21600");

    // More than the quote weighed, another customer, or a token changed by hand: refused.
    let mut heavier = shipment.clone();
    heavier["shipment"]["packages"][0]["weightKg"] = json!(12.5);
    let (status, refused, _) = post(
        site,
        "CustomerPortalService/CreateShipment",
        &heavier.to_string(),
        &acme,
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("failed_precondition")),
        "{refused}"
    );
    let bolt = customer_admin(site, &admin, "Bolt Quotes").await;
    let (_, refused, _) = post(
        site,
        "CustomerPortalService/CreateShipment",
        &shipment.to_string(),
        &bolt,
    )
    .await;
    assert_eq!(
        refused["message"],
        "This quote has expired. Get a new quote."
    );
    let mut forged = shipment.clone();
    forged["quoteToken"] = json!(own["token"].as_str().unwrap().replacen('.', ".e", 1));
    let (_, refused, _) = post(
        site,
        "CustomerPortalService/CreateShipment",
        &forged.to_string(),
        &acme,
    )
    .await;
    assert_eq!(refused["code"], "failed_precondition", "{refused}");

    // Without its card the customer gets the public prices again; the public card stays.
    let (status, _, _) = post(
        site,
        "RateCardService/DeleteRateCard",
        &json!({"id": acme_id}).to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200);
    let (_, own, _) = post(
        site,
        "CustomerPortalService/CreateQuote",
        &lagos_to_rotterdam(12.0).to_string(),
        &acme,
    )
    .await;
    assert_eq!(price(option(&own, "EXPRESS_AIR")), 24_000);
    let (_, refused, _) = post(
        site,
        "RateCardService/DeleteRateCard",
        r#"{"id": "public"}"#,
        &admin,
    )
    .await;
    assert_eq!(refused["message"], "The public rate card cannot be deleted");
}

#[tokio::test]
async fn all_in_one_quotes_price_from_the_cards_staff_keep() {
    quotes_price_from_the_cards_staff_keep(&common::site::all_in_one().await).await;
}

#[tokio::test]
async fn distributed_quotes_price_from_the_cards_staff_keep() {
    quotes_price_from_the_cards_staff_keep(&common::site::distributed().await).await;
}

#[tokio::test]
async fn quotes_have_their_own_rate_limit() {
    let site = common::site::all_in_one_with(|s| s.quotes_per_minute = 2).await;
    let body = lagos_to_rotterdam(1.0).to_string();
    for _ in 0..2 {
        assert_eq!(
            post(&site, "QuoteService/CreateQuote", &body, "").await.0,
            200
        );
    }
    let (status, refused, _) = post(&site, "QuoteService/CreateQuote", &body, "").await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (429, Some("resource_exhausted"))
    );
    assert_eq!(
        refused["message"],
        "Too many quotes from your network. Please wait a minute and try again."
    );
    // Tracking lookups are not counted with quotes.
    let (status, _, _) = post(
        &site,
        "ShipmentService/GetShipmentByTrackingNumber",
        r#"{"trackingNumber": "PSE000000000"}"#,
        "",
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_quote_made_before_a_restart_books_after_it() {
    let data = tempfile::tempdir().unwrap();
    let keys = service_auth::TokenSettings::default();
    let site = common::site::all_in_one_keyed(data.path(), &keys).await;
    let body = lagos_to_rotterdam(1.0).to_string();
    let admin = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let acme = customer_admin(&site, &admin, "Acme Restart").await;
    let (_, quote, _) = post(&site, "CustomerPortalService/CreateQuote", &body, &acme).await;
    drop(site);
    let site = common::site::all_in_one_keyed(data.path(), &keys).await;
    let acme = signed_in(
        &site,
        "admin@acme-restart.example.com",
        crate::customers::PASSWORD,
    )
    .await;
    let mut shipment = booking();
    shipment["shipment"]["packages"][0]["weightKg"] = json!(1.0);
    shipment["quoteToken"] = quote["token"].clone();
    shipment["quoteServiceCode"] = quote["options"][0]["serviceCode"].clone();
    let (status, booked, _) = post(
        &site,
        "CustomerPortalService/CreateShipment",
        &shipment.to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{booked}");
    assert_eq!(
        booked["totalFreightCents"],
        quote["options"][0]["priceMinor"]
    );
}

/// The largest card the proto allows: 20 services between 10 zones, 50 weight breaks each.
fn largest_card(version: i64) -> Value {
    let zones: Vec<Value> = (0..10)
        .map(|z| json!({"code": format!("Z{z}"), "name": format!("Zone {z}"), "places": [format!("A{}", (b'A' + z) as char)]}))
        .collect();
    let services: Vec<Value> = (0..20)
        .map(|s| json!({"code": format!("S{s}"), "name": format!("Service {s}"), "mode": "SHIPMENT_MODE_AIR_SHIPPING"}))
        .collect();
    let breaks: Vec<Value> = (1..=50)
        .map(|b| json!({"upToKg": b * 2, "priceMinor": (1000 + b).to_string(), "perKg": b > 25}))
        .collect();
    let mut lanes = Vec::new();
    for s in 0..20 {
        for from in 0..10 {
            for to in 0..10 {
                lanes.push(json!({
                    "serviceCode": format!("S{s}"), "originZone": format!("Z{from}"),
                    "destinationZone": format!("Z{to}"), "weightBreaks": breaks,
                    "minimumChargeMinor": "500", "volumetricDivisor": 5000,
                    "transitDaysMin": 1, "transitDaysMax": 3
                }));
            }
        }
    }
    json!({"rateCard": {"id": "public", "version": version, "currency": "EUR",
                        "zones": zones, "services": services, "lanes": lanes}})
}

#[tokio::test]
async fn the_largest_card_saves_as_json_and_one_lane_more_is_refused() {
    let site = common::site::all_in_one().await;
    let admin = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let card = largest_card(1).to_string();
    assert!(card.len() > 4 * 1024 * 1024, "{} bytes", card.len());
    let (status, saved, _) = post(&site, "RateCardService/UpdateRateCard", &card, &admin).await;
    assert_eq!(
        status,
        200,
        "{}",
        &saved.to_string()[..200.min(saved.to_string().len())]
    );
    assert_eq!(saved["lanes"].as_array().unwrap().len(), 2_000);
    let (status, quote, _) = post(
        &site,
        "QuoteService/CreateQuote",
        r#"{"origin": {"country": "AA"}, "destination": {"country": "AJ"}, "parcels": [{"weightKg": 99, "count": 1}]}"#,
        "",
    )
    .await;
    assert_eq!(status, 200, "{quote}");
    assert_eq!(quote["options"].as_array().unwrap().len(), 20);

    let mut beyond = largest_card(2);
    let lanes = beyond["rateCard"]["lanes"].as_array_mut().unwrap();
    let mut extra = lanes[0].clone();
    extra["weightBreaks"] = json!([{"upToKg": 1, "priceMinor": "1"}]);
    lanes.push(extra);
    let (status, refused, _) = post(
        &site,
        "RateCardService/UpdateRateCard",
        &beyond.to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(violations(&refused), ["rate_card.lanes"]);
}
