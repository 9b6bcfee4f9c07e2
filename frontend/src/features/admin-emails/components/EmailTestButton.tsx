import { useState } from 'react';
import { MailCheck } from 'lucide-react';
import { toast } from '@/lib/toast';
import { sendTestEmails } from '../api/emails';

const TEST_SUCCESS_MESSAGE = 'Test emails sent successfully!';
const TEST_FAILURE_MESSAGE = 'Failed to send test emails.';

/** "Run e-mail test": a sample shipper and receiver e-mail to the signed-in admin. */
export function EmailTestButton() {
  const [running, setRunning] = useState(false);
  const run = async () => {
    if (running) return;
    setRunning(true);
    try {
      await sendTestEmails();
      toast.success(TEST_SUCCESS_MESSAGE);
    } catch {
      toast.error(TEST_FAILURE_MESSAGE);
    } finally {
      setRunning(false);
    }
  };
  return (
    <button type="button" className="btn btn-outline" onClick={run} disabled={running}>
      <MailCheck aria-hidden="true" size={18} />
      {running ? 'Sending test emails...' : 'Run email test'}
    </button>
  );
}
