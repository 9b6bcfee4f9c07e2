//! A rate card's CSV as a spreadsheet opens it (Python's csv module, not our parser): every
//! name as text, nothing run as a formula, and what the spreadsheet saves reads back as the
//! same card.

use crate::common;

use common::service::{Running, caller, start};
use logistics_proto::v1::{self as pb, rate_card_service_client::RateCardServiceClient};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

type Rates = RateCardServiceClient<InterceptedService<Channel, Bearer>>;

fn rates(running: &Running) -> Rates {
    let token = running.key.mint(&caller("admin"), CALL_TOKEN_LIFETIME);
    RateCardServiceClient::with_interceptor(running.channel.clone(), Bearer::new(&token))
}

/// The cells written back out as a spreadsheet saves a CSV file (its own writer, with the mark).
fn saved_by_a_spreadsheet(cells: &[Vec<String>]) -> String {
    let mut out = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
    for row in cells {
        out.write_record(row).unwrap();
    }
    String::from_utf8(out.into_inner().unwrap()).unwrap()
}

#[tokio::test]
async fn a_rate_card_opens_in_a_spreadsheet_as_text_and_what_it_saves_reads_back() {
    let running = start().await;
    let mut client = rates(&running);
    let mut card = client
        .get_rate_card(pb::GetRateCardRequest {
            id: "public".into(),
        })
        .await
        .unwrap()
        .into_inner();
    card.zones[0].name = "=HYPERLINK(\"http://evil.example\",\"West Africa\")".into();
    card.services[0].name = "+Express, \"door to door\"".into();
    card.services[1].name = "@Standard – ✓ Łódź".into();
    let saved = client
        .update_rate_card(pb::UpdateRateCardRequest {
            rate_card: Some(card),
        })
        .await
        .unwrap()
        .into_inner();

    let export = client
        .export_rate_card(pb::ExportRateCardRequest {
            id: "public".into(),
        })
        .await
        .unwrap()
        .into_inner();
    // The reader fails on a missing byte-order mark, a ragged row or a cell that would run.
    let cells = common::spreadsheet_view(export.csv.as_bytes());
    assert_eq!(cells[0][..3], ["record", "code", "name"]);
    let name_of = |record: &str, code: &str| {
        cells
            .iter()
            .find(|row| row[0] == record && row[1] == code)
            .map(|row| row[2].clone())
            .unwrap()
    };
    assert_eq!(
        name_of("zone", &saved.zones[0].code),
        "'=HYPERLINK(\"http://evil.example\",\"West Africa\")"
    );
    assert_eq!(
        name_of("service", &saved.services[0].code),
        "'+Express, \"door to door\""
    );
    assert_eq!(
        name_of("service", &saved.services[1].code),
        "'@Standard – ✓ Łódź"
    );
    let lanes = cells.iter().filter(|row| row[0] == "lane").count();
    assert_eq!(lanes, saved.lanes.len());

    // What the spreadsheet saves is the same card again, names and prices exact.
    let parsed = client
        .parse_rate_card_csv(pb::ParseRateCardCsvRequest {
            id: "public".into(),
            version: saved.version,
            csv: saved_by_a_spreadsheet(&cells),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(parsed.zones, saved.zones);
    assert_eq!(parsed.services, saved.services);
    assert_eq!(parsed.lanes, saved.lanes);
    assert_eq!(parsed.currency, saved.currency);
}
