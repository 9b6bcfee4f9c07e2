//! Where e-mail goes: the EmailJS-compatible API of spec §7 (two accounts: shipment e-mails
//! and the contact form), or the local outbox the admin reads when no API is configured.

/// One account of the e-mail API.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// `user_id` in the API's terms.
    pub public_key: String,
    /// Sent as `accessToken` when set.
    pub private_key: Option<String>,
    pub service_id: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmailApiConfig {
    /// e.g. https://api.emailjs.com
    pub base_url: String,
    pub shipments: Account,
    pub shipper_template: String,
    pub receiver_template: String,
    /// Optional: status updates fail, naming the variable, until it is set.
    pub update_template: Option<String>,
    pub subscription_template: Option<String>,
    pub contact: Account,
    pub contact_template: String,
}

#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per process
pub enum MailConfig {
    /// Delivered into the outbox the admin reads: the all-in-one default.
    LocalOutbox,
    EmailApi(EmailApiConfig),
    /// The API was asked for but these variables are unset.
    Missing(Vec<&'static str>),
}

pub const DEFAULT_BASE_URL: &str = "https://api.emailjs.com";

/// The variables the API needs; the private keys are optional.
const REQUIRED: [&str; 7] = [
    "EMAILJS_PUBLIC_KEY",
    "EMAILJS_SERVICE_ID",
    "EMAILJS_SHIPPER_TEMPLATE_ID",
    "EMAILJS_RECEIVER_TEMPLATE_ID",
    "CONTACT_EMAILJS_PUBLIC_KEY",
    "CONTACT_EMAILJS_SERVICE_ID",
    "CONTACT_EMAILJS_TEMPLATE_ID",
];

impl MailConfig {
    /// By variable name: `MAIL_TRANSPORT` is `emailjs` or `local`; unset, the API is used
    /// as soon as any of its variables is set.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        let wants_api = match var("MAIL_TRANSPORT").as_deref() {
            Some("local") => false,
            Some(_) => true,
            None => REQUIRED
                .iter()
                .chain(["EMAILJS_PRIVATE_KEY", "CONTACT_EMAILJS_PRIVATE_KEY"].iter())
                .any(|n| var(n).is_some()),
        };
        if !wants_api {
            return MailConfig::LocalOutbox;
        }
        let missing: Vec<&'static str> =
            REQUIRED.into_iter().filter(|n| var(n).is_none()).collect();
        if !missing.is_empty() {
            return MailConfig::Missing(missing);
        }
        let get = |n: &str| var(n).unwrap_or_default();
        MailConfig::EmailApi(EmailApiConfig {
            base_url: var("EMAILJS_BASE_URL").unwrap_or_else(|| DEFAULT_BASE_URL.to_owned()),
            shipments: Account {
                public_key: get("EMAILJS_PUBLIC_KEY"),
                private_key: var("EMAILJS_PRIVATE_KEY"),
                service_id: get("EMAILJS_SERVICE_ID"),
            },
            shipper_template: get("EMAILJS_SHIPPER_TEMPLATE_ID"),
            receiver_template: get("EMAILJS_RECEIVER_TEMPLATE_ID"),
            update_template: var("EMAILJS_UPDATE_TEMPLATE_ID"),
            subscription_template: var("EMAILJS_SUBSCRIPTION_TEMPLATE_ID"),
            contact: Account {
                public_key: get("CONTACT_EMAILJS_PUBLIC_KEY"),
                private_key: var("CONTACT_EMAILJS_PRIVATE_KEY"),
                service_id: get("CONTACT_EMAILJS_SERVICE_ID"),
            },
            contact_template: get("CONTACT_EMAILJS_TEMPLATE_ID"),
        })
    }

    /// `Missing required environment variables: A, B` when sending is impossible.
    pub fn problem(&self) -> Option<String> {
        match self {
            MailConfig::Missing(names) => Some(format!(
                "Missing required environment variables: {}",
                names.join(", ")
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn nothing_configured_is_the_local_outbox() {
        assert_eq!(MailConfig::from_vars(vars(&[])), MailConfig::LocalOutbox);
    }

    #[test]
    fn a_partial_api_configuration_names_exactly_what_is_missing() {
        let config = MailConfig::from_vars(vars(&[
            ("EMAILJS_PUBLIC_KEY", "pk"),
            ("EMAILJS_SERVICE_ID", "svc"),
        ]));
        assert_eq!(
            config.problem().unwrap(),
            "Missing required environment variables: EMAILJS_SHIPPER_TEMPLATE_ID, EMAILJS_RECEIVER_TEMPLATE_ID, \
             CONTACT_EMAILJS_PUBLIC_KEY, CONTACT_EMAILJS_SERVICE_ID, CONTACT_EMAILJS_TEMPLATE_ID"
        );
        let asked = MailConfig::from_vars(vars(&[("MAIL_TRANSPORT", "emailjs")]));
        assert_eq!(asked, MailConfig::Missing(REQUIRED.to_vec()));
    }
}
