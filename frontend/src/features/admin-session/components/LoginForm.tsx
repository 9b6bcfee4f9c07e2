import { useState, type FormEvent } from 'react';
import { AlertCircle, LoaderCircle, LogIn } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { toast } from '@/lib/toast';
import { signIn } from '../hooks/session-store';
import { LOGIN_SUCCESS_MESSAGE, loginErrorMessage } from '../utils/login-error';
import './login.css';

/** Email and password; on success the session store flips to signed-in (the page redirects). */
export function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      toast.success(LOGIN_SUCCESS_MESSAGE, { autoClose: 3000, toastId: 'login-success' });
    } catch (err) {
      const message = loginErrorMessage(err);
      setError(message);
      setPassword('');
      toast.error(message, { toastId: `login-error-${Date.now()}` });
      setBusy(false);
    }
  };

  return (
    <form className="card login-card" onSubmit={submit} aria-busy={busy}>
      {error && (
        <div className="alert alert-error" role="alert" data-testid="login-error">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{error}</p>
        </div>
      )}
      <Field id="login-email" label="Email">
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
      <Field id="login-password" label="Password">
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
        Login
      </button>
    </form>
  );
}
