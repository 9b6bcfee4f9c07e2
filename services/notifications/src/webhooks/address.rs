//! Where a webhook may be sent: checked when an endpoint is saved and again on every
//! connection, so neither a URL nor a DNS answer can point the product at its own network.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use reqwest::Url;

/// Longest URL an endpoint may have.
pub const MAX_URL_CHARS: usize = 2000;

/// Whether addresses on loopback, link-local and private networks may be reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    pub allow_private: bool,
}

/// Why a URL or an address is refused, in words an admin can act on.
pub const PRIVATE_REFUSED: &str = "must not point to a loopback, link-local or private address (set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true for on-premises systems)";

fn v4_is_public(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // Benchmarking, 198.18.0.0/15, and reserved 240.0.0.0/4.
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn v6_is_public(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_is_public(v4);
    }
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local fc00::/7, link-local fe80::/10, documentation 2001:db8::/32.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        // NAT64 well-known prefix 64:ff9b::/96 can reach any IPv4 address.
        || (first == 0x0064 && ip.segments()[1] == 0xff9b))
}

impl AddressPolicy {
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.allow_private
            || match ip {
                IpAddr::V4(v4) => v4_is_public(v4),
                IpAddr::V6(v6) => v6_is_public(v6),
            }
    }

    /// A URL an endpoint may have, or what is wrong with it (for the field `url`).
    pub fn check_url(&self, text: &str) -> Result<Url, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("is required".into());
        }
        if text.chars().count() > MAX_URL_CHARS {
            return Err(format!("must be at most {MAX_URL_CHARS} characters"));
        }
        let url = Url::parse(text)
            .map_err(|_| "must be a URL such as https://erp.example.com/hooks".to_owned())?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err("must start with https:// or http://".into());
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(
                "must not contain a user name or password; the signature proves who sends".into(),
            );
        }
        if url.fragment().is_some() {
            return Err("must not contain a fragment (#...)".into());
        }
        let host = url.host_str().unwrap_or_default();
        if host.is_empty() {
            return Err("must name a host".into());
        }
        if !self.allow_private {
            let named_local = {
                let host = host.trim_end_matches('.').to_ascii_lowercase();
                host == "localhost"
                    || host.ends_with(".localhost")
                    || host.ends_with(".local")
                    || host.ends_with(".internal")
            };
            let literal_private = match url.host() {
                Some(url::Host::Ipv4(ip)) => !self.allows(IpAddr::V4(ip)),
                Some(url::Host::Ipv6(ip)) => !self.allows(IpAddr::V6(ip)),
                _ => false,
            };
            if named_local || literal_private {
                return Err(PRIVATE_REFUSED.into());
            }
        }
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_https_urls_pass_and_hostile_ones_are_refused_with_a_reason() {
        let policy = AddressPolicy::default();
        assert!(
            policy
                .check_url("https://erp.example.com/hooks?x=1")
                .is_ok()
        );
        assert!(policy.check_url("http://203.0.114.9:8080/in").is_ok());
        let refused = |url: &str| policy.check_url(url).expect_err(url);
        assert_eq!(refused(""), "is required");
        assert!(refused("not a url").starts_with("must be a URL"));
        assert!(refused("file:///etc/passwd").starts_with("must start with"));
        assert!(refused("gopher://example.com/").starts_with("must start with"));
        assert!(refused("https://user:pw@example.com/").contains("user name or password"));
        assert!(refused("https://user@example.com/").contains("user name or password"));
        for private in [
            "http://169.254.169.254/latest/meta-data/",
            "http://[::1]/",
            "http://127.0.0.1:8080/",
            "http://10.1.2.3/",
            "http://192.168.0.10/",
            "http://172.16.5.4/",
            "http://100.64.0.1/",
            "http://0.0.0.0/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://localhost:3000/",
            "http://db.internal/",
            "http://2130706433/",
            "http://0x7f.1/",
        ] {
            assert_eq!(refused(private), PRIVATE_REFUSED, "{private}");
        }
        let long = format!("https://example.com/{}", "a".repeat(10_000));
        assert!(refused(&long).contains("at most 2000"));
    }

    #[test]
    fn the_setting_lets_on_premises_addresses_through() {
        let policy = AddressPolicy {
            allow_private: true,
        };
        assert!(policy.check_url("http://127.0.0.1:8080/").is_ok());
        assert!(policy.check_url("http://10.0.0.5/erp").is_ok());
        assert!(policy.check_url("file:///etc/passwd").is_err());
    }
}
