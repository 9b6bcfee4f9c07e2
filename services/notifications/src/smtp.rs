//! Sends the product's own e-mails to the company's mail server over SMTP (lettre).

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::{self, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use outbox::{Notification, Template};
use service_common::settings::ExposeSecret;

use crate::config::{SmtpConfig, SmtpTls};
use crate::render::{Renderer, one_line};
use crate::send_error::SendError;

/// Connections kept open to the server: one per e-mail the worker sends at once
/// (NOTIFY_CONCURRENCY is at most this).
pub const POOL_SIZE: u32 = 16;

/// `List-Unsubscribe: <url>` on the update e-mails of subscribers.
#[derive(Clone)]
struct ListUnsubscribe(String);

impl header::Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the mail client may POST to
/// the List-Unsubscribe URL to unsubscribe, which the gateway answers.
#[derive(Clone)]
struct ListUnsubscribePost;

impl header::Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    contact_inbox: Mailbox,
    renderer: Arc<Renderer>,
}

impl std::fmt::Debug for SmtpSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSender")
            .field("from", &self.from)
            .finish()
    }
}

/// The certificates of SMTP_CA_FILE, or why they cannot be used.
fn read_ca_file(path: &std::path::Path) -> anyhow::Result<Certificate> {
    let pem =
        std::fs::read(path).map_err(|e| anyhow::anyhow!("SMTP_CA_FILE {}: {e}", path.display()))?;
    if !String::from_utf8_lossy(&pem).contains("-----BEGIN CERTIFICATE-----") {
        anyhow::bail!(
            "SMTP_CA_FILE {} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
            path.display()
        );
    }
    Certificate::from_pem(&pem).map_err(|e| anyhow::anyhow!("SMTP_CA_FILE {}: {e}", path.display()))
}

/// An SMTP error as the admin reads it, with what to do when the server's certificate is
/// not trusted.
fn describe(e: &lettre::transport::smtp::Error) -> String {
    let mut text = format!("SMTP {e}");
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(inner) = cause {
        let said = inner.to_string();
        if said.contains("UnknownIssuer") || said.contains("invalid peer certificate") {
            text.push_str(
                " (the mail server's certificate is not signed by a CA this machine trusts: \
                 install the company's CA in the system store or set SMTP_CA_FILE)",
            );
            break;
        }
        cause = inner.source();
    }
    text
}

impl SmtpSender {
    /// `timeout` bounds each SMTP command. Connections are opened when an e-mail is sent.
    /// Refuses a password over a connection without TLS unless the configuration allows it.
    pub fn new(
        config: &SmtpConfig,
        renderer: Arc<Renderer>,
        timeout: Duration,
    ) -> anyhow::Result<Self> {
        if config.tls == SmtpTls::None && config.password.is_some() && !config.allow_plaintext_auth
        {
            anyhow::bail!(
                "SMTP_TLS=none would send SMTP_PASSWORD unencrypted: use SMTP_TLS=starttls or implicit, \
                 or set SMTP_ALLOW_PLAINTEXT_AUTH=true for a relay on a trusted network"
            );
        }
        let ca = match &config.ca_file {
            Some(path) => Some(read_ca_file(path)?),
            None => None,
        };
        let helo = config
            .helo_name
            .clone()
            .unwrap_or_else(|| config.from.email.domain().to_owned());
        let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .timeout(Some(timeout))
            .hello_name(ClientId::Domain(helo))
            .pool_config(PoolConfig::new().max_size(POOL_SIZE));
        // The system store (a company CA installed there included) and SMTP_CA_FILE.
        let tls = || {
            let builder = TlsParameters::builder(config.host.clone());
            match &ca {
                Some(ca) => builder.add_root_certificate(ca.clone()),
                None => builder,
            }
            .build()
        };
        let builder = match config.tls {
            SmtpTls::Starttls => builder.tls(Tls::Required(tls()?)),
            SmtpTls::Implicit => builder.tls(Tls::Wrapper(tls()?)),
            SmtpTls::None => builder.tls(Tls::None),
        };
        let builder = match (&config.username, &config.password) {
            (Some(user), Some(password)) => builder.credentials(Credentials::new(
                user.clone(),
                password.expose_secret().to_owned(),
            )),
            _ => builder,
        };
        let contact_inbox = match &config.contact_inbox {
            Some(inbox) => inbox.clone(),
            None => Mailbox::new(
                Some(renderer.brand().name.clone()),
                renderer.brand().support_email.parse()?,
            ),
        };
        Ok(Self {
            transport: builder.build(),
            from: config.from.clone(),
            contact_inbox,
            renderer,
        })
    }

    /// The message `n` becomes: rendered, addressed, with its id as Message-ID so a retry is
    /// recognisably the same e-mail.
    pub fn message(&self, n: &Notification) -> Result<Message, SendError> {
        let rendered = self
            .renderer
            .render(n.template, &n.params)
            .map_err(|e| SendError::Refused(format!("e-mail template: {e}")))?;
        let mailbox = |name: &str, address: &str, field: &str| {
            let address = address
                .trim()
                .parse()
                .map_err(|e| SendError::Refused(format!("{field} address {address:?}: {e}")))?;
            let name = one_line(name);
            Ok::<_, SendError>(Mailbox::new((!name.is_empty()).then_some(name), address))
        };
        let domain = self.from.email.domain().to_owned();
        let mut builder = Message::builder()
            .from(self.from.clone())
            .subject(rendered.subject)
            .message_id(Some(format!("<{}@{domain}>", n.id)));
        if n.template == Template::Contact {
            let param = |name: &str| n.params.get(name).map(String::as_str).unwrap_or_default();
            builder = builder.to(self.contact_inbox.clone()).reply_to(mailbox(
                param("from_name"),
                param("reply_to"),
                "reply-to",
            )?);
        } else {
            builder = builder.to(mailbox(&n.to_name, &n.to_email, "recipient")?);
        }
        if let Some(url) = n.params.get("unsubscribe_url") {
            builder = builder
                .header(ListUnsubscribe(format!("<{}>", one_line(url))))
                .header(ListUnsubscribePost);
        }
        builder
            .multipart(MultiPart::alternative_plain_html(
                rendered.text,
                rendered.html,
            ))
            .map_err(|e| SendError::Refused(format!("e-mail not built: {e}")))
    }

    pub async fn send(&self, n: &Notification) -> Result<(), SendError> {
        let message = self.message(n)?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            // 5xx: the server will answer the same next time.
            Err(e) if e.is_permanent() => Err(SendError::Refused(describe(&e))),
            // 4xx (greylisting, a full mailbox), a dropped connection, a timeout, TLS trouble.
            Err(e) => Err(SendError::Passing {
                error: describe(&e),
                retry_after: None,
            }),
        }
    }
}
