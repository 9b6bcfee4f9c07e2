import { useState, type FormEvent } from 'react';
import { AlertCircle, LoaderCircle, LogIn } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { toast } from '@/lib/toast';
import { useSignIn } from '../hooks/use-session';
import { LOGIN_SUCCESS_MESSAGE, loginErrorMessage } from '../utils/login-error';
import './login.css';

/** The form's words; the staff login's English ones unless the page translates them (the portal). */
type LoginFormWords = { email: string; password: string; submit: string; success: string };

const STAFF_WORDS: LoginFormWords = { email: 'Email', password: 'Password', submit: 'Login', success: LOGIN_SUCCESS_MESSAGE };

type LoginFormProps = { words?: LoginFormWords; initialEmail?: string };

/** Email and password; on success the session is this user (the page redirects). */
export function LoginForm({ words = STAFF_WORDS, initialEmail = '' }: LoginFormProps) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  // Still busy once signed in: the page is leaving.
  const busy = signIn.isPending || signIn.isSuccess;
  const error = signIn.isError ? loginErrorMessage(signIn.error) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => toast.success(words.success, { autoClose: 3000, toastId: 'login-success' }),
        onError: (err) => {
          setPassword('');
          toast.error(loginErrorMessage(err), { toastId: `login-error-${Date.now()}` });
        },
      },
    );
  };

  return (
    <form className="card login-card" onSubmit={submit} aria-busy={busy}>
      {error && (
        <div className="alert alert-error" role="alert" data-testid="login-error">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{error}</p>
        </div>
      )}
      <Field id="login-email" label={words.email}>
        <input
          id="login-email"
          className="input"
          type="email"
          name="email"
          required
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field id="login-password" label={words.password}>
        <input
          id="login-password"
          className="input"
          type="password"
          name="password"
          required
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <button type="submit" className="btn btn-primary btn-lg login-submit" disabled={busy}>
        {busy ? <LoaderCircle className="icon-spin" aria-hidden="true" size={20} /> : <LogIn aria-hidden="true" size={20} />}
        {words.submit}
      </button>
    </form>
  );
}
