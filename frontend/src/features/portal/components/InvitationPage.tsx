import './portal.css';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Code, ConnectError } from '@connectrpc/connect';
import { AlertCircle, UserPlus } from 'lucide-react';
import { EmailAddress } from '@/components/ui/Bidi';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { PageHero } from '@/components/ui/PageHero';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { MIN_PASSWORD_LENGTH } from '@/config/passwords';
import { PORTAL_LOGIN_PATH } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useNoIndex } from '@/hooks/use-no-index';
import { useMessages } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useAcceptInvitation, useCustomerInvitation } from '../api/invitation';
import { passwordsMismatch } from '../utils/invitation';

/** What the sign-in page prefills after an accepted invitation. */
export type InvitedState = { email: string };

/** /invitation#<token> (and /es|/fr|/ar/invitation): who invited the visitor, then their name and
 * password; the token stays in the fragment, sent to the server only in the calls. */
export function InvitationPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.invitation.title'));
  useNoIndex();
  const token = decodeURIComponent(useLocation().hash.replace(/^#/, '')).trim();
  const invitation = useCustomerInvitation(token);

  let body;
  if (!token) body = <LinkProblem message={t('portal.invitation.no_token')} />;
  else if (invitation.isPending) body = <Spinner size="md" label={t('portal.invitation.loading')} />;
  else if (invitation.error) body = <LinkProblem message={serverMessage(invitation.error, t('portal.invitation.load_failed'))} />;
  else {
    const { customerName, email, name } = invitation.data;
    body = (
      <>
        <div className="card invitation-who">
          <h2 data-testid="invitation-heading">{t('portal.invitation.invited', { customer: customerName })}</h2>
          <p>
            <EmailAddress address={email} />
          </p>
        </div>
        <AcceptForm token={token} email={email} name={name} />
      </>
    );
  }
  return (
    <>
      <PageHero title={t('portal.invitation.title')} intro={t('portal.invitation.intro')} />
      <div className="container invitation-page">{body}</div>
    </>
  );
}

function LinkProblem({ message }: { message: string }) {
  const t = useMessages('portal');
  const { path } = useLanguage();
  return (
    <div className="card invitation-problem">
      <div className="alert alert-error" role="alert" data-testid="invitation-error">
        <AlertCircle aria-hidden="true" size={22} />
        <p>{message}</p>
      </div>
      <p>
        <Link to={path('/')}>{t('portal.invitation.home')}</Link>
      </p>
    </div>
  );
}

function AcceptForm({ token, email, name: invitedName }: { token: string; email: string; name: string }) {
  const t = useMessages('portal');
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  const [name, setName] = useState(invitedName);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string; confirm?: string; form?: string }>({});
  const busy = accept.isPending || accept.isSuccess;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (passwordsMismatch(password, confirm)) {
      setErrors({ confirm: t('portal.invitation.mismatch') });
      return;
    }
    setErrors({});
    accept.mutate(
      { token, name: name.trim(), password },
      {
        onSuccess: () => {
          toast.success(t('portal.invitation.ready'), { toastId: 'invitation-accepted' });
          navigate(PORTAL_LOGIN_PATH, { state: { email } satisfies InvitedState });
        },
        onError: (error) => {
          const violations = fieldViolations(error);
          const next: typeof errors = {};
          for (const v of violations) {
            if (v.field === 'name') next.name = v.description;
            else if (v.field === 'password') next.password = v.description;
            else next.form = v.description;
          }
          if (violations.length === 0) next.form = serverMessage(error, t('portal.invitation.accept_failed'));
          const code = ConnectError.from(error).code;
          // A link that went bad meanwhile (used, expired): its sentence replaces the form's.
          if (code === Code.AlreadyExists || violations.some((v) => v.field === 'token')) {
            next.form = serverMessage(error, t('portal.invitation.accept_failed'));
          }
          setErrors(next);
        },
      },
    );
  };

  return (
    <form className="card invitation-form" onSubmit={submit} aria-busy={busy}>
      {errors.form && (
        <div className="alert alert-error" role="alert" data-testid="invitation-form-error">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{errors.form}</p>
        </div>
      )}
      <Field id="invite-name" label={t('portal.invitation.name')} error={errors.name}>
        <input
          className="input"
          required
          maxLength={100}
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          {...fieldInputProps('invite-name', errors.name)}
        />
      </Field>
      {/* For the browser's password manager: the account this password is for. */}
      <input type="email" hidden readOnly autoComplete="username" value={email} />
      <Field
        id="invite-password"
        label={t('portal.invitation.password')}
        error={errors.password}
        hint={t('portal.invitation.password_hint', { min: MIN_PASSWORD_LENGTH })}
      >
        <input
          className="input"
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          {...fieldInputProps('invite-password', errors.password, t('portal.invitation.password_hint', { min: MIN_PASSWORD_LENGTH }))}
        />
      </Field>
      <Field id="invite-confirm" label={t('portal.invitation.confirm')} error={errors.confirm}>
        <input
          className="input"
          type="password"
          required
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          {...fieldInputProps('invite-confirm', errors.confirm)}
        />
      </Field>
      <SubmitButton busy={busy} busyLabel={t('portal.invitation.creating')}>
        <UserPlus aria-hidden="true" size={18} />
        {t('portal.invitation.submit')}
      </SubmitButton>
    </form>
  );
}
