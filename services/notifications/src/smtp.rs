//! Sends the product's own e-mails to the company's mail server over SMTP (lettre).

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::{self, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use outbox::{Notification, Template};

use crate::config::{SmtpConfig, SmtpTls};
use crate::render::{Renderer, one_line};
use crate::transport::SendError;

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

impl SmtpSender {
    /// `timeout` bounds each SMTP command. Connections are opened when an e-mail is sent.
    pub fn new(
        config: &SmtpConfig,
        renderer: Arc<Renderer>,
        timeout: Duration,
    ) -> anyhow::Result<Self> {
        let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .timeout(Some(timeout));
        let tls = || TlsParameters::new(config.host.clone());
        let builder = match config.tls {
            SmtpTls::Starttls => builder.tls(Tls::Required(tls()?)),
            SmtpTls::Implicit => builder.tls(Tls::Wrapper(tls()?)),
            SmtpTls::None => builder.tls(Tls::None),
        };
        let builder = match (&config.username, &config.password) {
            (Some(user), Some(password)) => {
                builder.credentials(Credentials::new(user.clone(), password.clone()))
            }
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
            builder = builder.header(ListUnsubscribe(format!("<{}>", one_line(url))));
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
            Err(e) if e.is_permanent() => Err(SendError::Refused(format!("SMTP {e}"))),
            // 4xx (greylisting, a full mailbox), a dropped connection, a timeout, TLS trouble.
            Err(e) => Err(SendError::Passing {
                error: format!("SMTP {e}"),
                retry_after: None,
            }),
        }
    }
}
