import './users.css';
import '@/components/ui/data-table.css';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Code, ConnectError } from '@connectrpc/connect';
import { Ban, ChevronLeft, ChevronRight, Send, UserCheck } from 'lucide-react';
import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ConfirmDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { currentLanguage, useMessages } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useCustomerUsers, useInviteCustomerUser, useSetCustomerUserDisabled } from '../api/users';
import { CUSTOMER_ROLES, customerRoleLabelId, inviteFieldOf, type InviteValues } from '../utils/users';

/** /portal/users: the customer's users for its admins (Disable / Enable, Invite a user); anyone
 * else is told who may manage them. */
export function UsersPage({ user }: { user: User }) {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.users.title'));
  if (user.role !== Role.CUSTOMER_ADMIN) return <NotAllowed />;
  return <UsersAdmin currentUserId={user.id} />;
}

function NotAllowed() {
  const t = useMessages('portal');
  return (
    <div className="portal-page">
      <h1>{t('portal.users.title')}</h1>
      <p className="card portal-users-denied" role="status" data-testid="portal-users-denied">
        {t('portal.users.not_allowed')}
      </p>
    </div>
  );
}

function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const t = useMessages('portal');
  // The tokens of the pages before the one shown, for "Previous".
  const [pages, setPages] = useState<string[]>(['']);
  const list = useCustomerUsers(pages[pages.length - 1]);
  const [disabling, setDisabling] = useState<User | null>(null);
  const setDisabled = useSetCustomerUserDisabled();

  // A role taken away since the page opened: the server's refusal reads as the page's rule.
  if (list.error && ConnectError.from(list.error).code === Code.PermissionDenied) return <NotAllowed />;

  const change = async (target: User, disabled: boolean) => {
    try {
      await setDisabled.mutateAsync({ id: target.id, disabled });
      toast.success(t(disabled ? 'portal.users.disabled_done' : 'portal.users.enabled_done', { email: target.email }));
      setDisabling(null);
    } catch (error) {
      toast.error(serverMessage(error, t(disabled ? 'portal.users.disable_failed' : 'portal.users.enable_failed')));
    }
  };

  const users = list.data?.users ?? [];
  const nextToken = list.data?.nextPageToken ?? '';
  return (
    <div className="portal-page portal-users">
      <div className="portal-page-head">
        <h1>{t('portal.users.title')}</h1>
      </div>
      <p className="muted">{t('portal.users.intro')}</p>

      {list.error && <ErrorAlert message={serverMessage(list.error, t('portal.users.load_failed'))} />}
      {list.isPending ? (
        <Spinner size="md" label={t('portal.users.loading')} />
      ) : users.length === 0 ? (
        !list.error && <p className="card portal-empty">{t('portal.users.empty')}</p>
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label={t('portal.users.list_label')} tabIndex={0}>
            <table className="data-table portal-users-table" aria-busy={list.isFetching}>
              <thead>
                <tr>
                  <th scope="col">{t('portal.users.name')}</th>
                  <th scope="col">{t('portal.users.email')}</th>
                  <th scope="col">{t('portal.users.role')}</th>
                  <th scope="col">{t('portal.users.status')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('portal.users.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => {
                  const label = u.name || u.email;
                  return (
                    <tr key={u.id} data-email={u.email}>
                      <th scope="row" className="cell-text">
                        <bdi>{label}</bdi>
                      </th>
                      <td data-label={t('portal.users.email')} className="cell-email">
                        <bdi>{u.email}</bdi>
                      </td>
                      <td data-label={t('portal.users.role')}>{t(customerRoleLabelId(u.role))}</td>
                      <td className="card-aside">
                        <span className={`status-pill ${u.disabled ? 'is-off' : 'is-on'}`}>
                          {u.disabled ? t('portal.users.disabled') : t('portal.users.active')}
                        </span>
                      </td>
                      <td className="card-actions">
                        {u.id === currentUserId ? (
                          <span className="muted">{t('portal.users.you')}</span>
                        ) : u.disabled ? (
                          <button
                            type="button"
                            className="btn btn-outline btn-sm"
                            aria-label={t('portal.users.enable_named', { name: label })}
                            disabled={setDisabled.isPending}
                            onClick={() => void change(u, false)}
                          >
                            <UserCheck aria-hidden="true" size={16} />
                            {t('portal.users.enable')}
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="btn btn-danger btn-sm"
                            aria-label={t('portal.users.disable_named', { name: label })}
                            disabled={setDisabled.isPending}
                            onClick={() => setDisabling(u)}
                          >
                            <Ban aria-hidden="true" size={16} />
                            {t('portal.users.disable')}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}

      {list.data && (pages.length > 1 || nextToken) && (
        <nav className="portal-pager" aria-label={t('portal.list.pages')}>
          <button type="button" className="btn btn-outline btn-sm" disabled={pages.length <= 1} onClick={() => setPages(pages.slice(0, -1))}>
            <ChevronLeft aria-hidden="true" size={16} className="flip-rtl" />
            {t('portal.list.previous')}
          </button>
          <button type="button" className="btn btn-outline btn-sm" disabled={!nextToken || list.isFetching} onClick={() => setPages([...pages, nextToken])}>
            {t('portal.list.next')}
            <ChevronRight aria-hidden="true" size={16} className="flip-rtl" />
          </button>
        </nav>
      )}

      <InviteForm />

      {disabling && (
        <ConfirmDialog
          title={t('portal.users.disable_title')}
          confirmLabel={t('portal.users.disable')}
          cancelLabel={t('portal.users.cancel')}
          busy={setDisabled.isPending}
          onCancel={() => setDisabling(null)}
          onConfirm={() => void change(disabling, true)}
        >
          <p>{t('portal.users.disable_question', { name: disabling.name || disabling.email })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

const BLANK: InviteValues = { email: '', name: '', role: String(Role.CUSTOMER_USER) };

/** Invite a user: the e-mail goes out in the page's language. */
function InviteForm() {
  const t = useMessages('portal');
  const form = useForm<InviteValues>({ defaultValues: BLANK });
  const { register, formState } = form;
  const invite = useInviteCustomerUser();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const saving = formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    const email = values.email.trim();
    try {
      await invite.mutateAsync({
        invitation: { email, name: values.name.trim(), role: Number(values.role) as Role },
        languageCode: currentLanguage(),
      });
      toast.success(t('portal.users.invited', { email }));
      form.reset(BLANK);
    } catch (error) {
      const violations = fieldViolations(error);
      const general: string[] = [];
      let focused = false;
      for (const { field, description } of violations) {
        const name = inviteFieldOf(field);
        if (name) {
          form.setError(name, { type: 'server', message: description }, { shouldFocus: !focused });
          focused = true;
        } else general.push(description);
      }
      setFormErrors(violations.length === 0 ? [serverMessage(error, t('portal.users.invite_failed'))] : general);
    }
  });

  const err = (name: keyof InviteValues) => formState.errors[name]?.message;
  return (
    <section className="card portal-invite" aria-labelledby="portal-invite-heading">
      <h2 id="portal-invite-heading" className="card-title">
        {t('portal.users.invite_title')}
      </h2>
      <p className="muted">{t('portal.users.invite_intro')}</p>
      <form onSubmit={(event) => void submit(event)} aria-busy={saving} noValidate className="portal-invite-form">
        <FormErrors messages={formErrors} />
        <div className="portal-invite-fields">
          <Field id="invite-email" label={t('portal.users.email')} error={err('email')}>
            <input
              className="input"
              type="email"
              autoComplete="off"
              dir="ltr"
              {...fieldInputProps('invite-email', err('email'))}
              {...register('email')}
            />
          </Field>
          <Field id="invite-name" label={t('portal.users.name')} error={err('name')}>
            <input
              className="input"
              type="text"
              autoComplete="off"
              dir="auto"
              {...fieldInputProps('invite-name', err('name'))}
              {...register('name')}
            />
          </Field>
          <Field id="invite-role" label={t('portal.users.role')} error={err('role')}>
            <select className="select" {...fieldInputProps('invite-role', err('role'))} {...register('role')}>
              {CUSTOMER_ROLES.map(({ role, labelId }) => (
                <option key={role} value={String(role)}>
                  {t(labelId)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="portal-invite-actions">
          <SubmitButton busy={saving} busyLabel={t('portal.users.inviting')}>
            <Send aria-hidden="true" size={18} className="flip-rtl" />
            {t('portal.users.invite_submit')}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
