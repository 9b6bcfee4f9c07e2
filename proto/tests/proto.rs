//! The generated code's own parts: its codec's errors, and the names of permissions and scopes.
//! Tested from outside, so the generated code is not built a second time with `cfg(test)`.

use logistics_proto::codec::{UNDECODABLE, undecodable};
use logistics_proto::v1::GetShipmentByTrackingNumberRequest as Lookup;
use logistics_proto::v1::{CustomerScope, Permission};
use prost::Message;
use tonic::Status;

#[test]
fn names_are_the_proto_names_lower_cased_with_a_dot() {
    assert_eq!(Permission::ShipmentsRead.as_str(), "shipments.read");
    assert_eq!(Permission::DeliveriesRecord.as_str(), "deliveries.record");
    assert_eq!(Permission::all().len(), 22);
    assert_eq!(Permission::RatesManage.as_str(), "rates.manage");
    for &p in Permission::all() {
        assert_eq!(Permission::parse(p.as_str()), Some(p));
    }
    assert_eq!(Permission::parse(""), None);
    assert_eq!(Permission::Unspecified.as_str(), "");
    assert_eq!(CustomerScope::ShipmentsBook.as_str(), "shipments.book");
    assert_eq!(CustomerScope::AddressesManage.as_str(), "addresses.manage");
    assert_eq!(CustomerScope::WebhooksManage.as_str(), "webhooks.manage");
    assert_eq!(CustomerScope::all().len(), 5);
    assert_eq!(
        CustomerScope::parse("pickups.request"),
        Some(CustomerScope::PickupsRequest)
    );
}

fn decode(bytes: &[u8]) -> Status {
    undecodable(Lookup::decode(bytes).unwrap_err())
}

#[test]
fn decode_errors_are_invalid_argument_naming_the_field() {
    let wrong_wire_type = decode(&[0x08, 0x01]);
    assert_eq!(wrong_wire_type.code(), tonic::Code::InvalidArgument);
    assert_eq!(
        wrong_wire_type.message(),
        "The message could not be decoded: GetShipmentByTrackingNumberRequest.tracking_number: \
         invalid wire type: Varint (expected LengthDelimited)."
    );
    let bad_utf8 = decode(&[0x0a, 0x02, 0xff, 0xfe]);
    assert_eq!(bad_utf8.code(), tonic::Code::InvalidArgument);
    assert!(bad_utf8.message().contains("not UTF-8"), "{bad_utf8:?}");
    let cut_short = decode(&[0x0a, 0x09, b'P']);
    assert_eq!(cut_short.code(), tonic::Code::InvalidArgument);
    assert!(cut_short.message().starts_with(UNDECODABLE));
}

#[test]
fn generated_servers_use_this_codec() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/logistics.v1.rs"));
    assert!(generated.contains("crate::codec::ProtoCodec::default()"));
    assert!(!generated.contains("tonic_prost::ProstCodec"));
}
