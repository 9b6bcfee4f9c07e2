//! google.protobuf.Timestamp to and from the services' UTC times.

use chrono::{DateTime, Utc};
use prost_types::Timestamp;

pub fn to_proto(t: DateTime<Utc>) -> Timestamp {
    Timestamp {
        seconds: t.timestamp(),
        nanos: t.timestamp_subsec_nanos() as i32,
    }
}

/// None for a time outside chrono's range; negative nanoseconds count as none.
pub fn from_proto(t: &Timestamp) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let t = DateTime::parse_from_rfc3339("2026-11-23T10:00:00.123456Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            to_proto(t),
            Timestamp {
                seconds: t.timestamp(),
                nanos: 123_456_000
            }
        );
        assert_eq!(from_proto(&to_proto(t)), Some(t));
        assert_eq!(
            from_proto(&Timestamp {
                seconds: i64::MAX,
                nanos: 0
            }),
            None
        );
    }
}
