import { Check, CircleAlert } from 'lucide-react';
import { useMessages } from '@/lib/i18n';
import { formatIsoDate } from '@/utils/format';
import type { ProgressStep } from '../utils/progress';

const STEP_NAME: Record<ProgressStep['name'], string> = {
  Created: 'track.progress.created',
  'Picked up': 'track.progress.picked_up',
  'In transit': 'track.progress.in_transit',
  'Out for delivery': 'track.progress.out_for_delivery',
  Delivered: 'track.progress.delivered',
};

// Read after the step's name by screen readers only (the current step's is shown).
const STATE_TEXT: Record<Exclude<ProgressStep['state'], 'current'>, string> = {
  done: 'track.progress.state_done',
  upcoming: 'track.progress.state_upcoming',
};

const MARKER: Record<ProgressStep['markers'][number]['status'], string> = {
  delayed: 'track.progress.delayed',
  on_hold: 'track.progress.on_hold',
};

// A delay or hold the shipment has moved on from is told in the past tense, and greyed.
const PAST_MARKER: Record<ProgressStep['markers'][number]['status'], string> = {
  delayed: 'track.progress.was_delayed',
  on_hold: 'track.progress.was_on_hold',
};

/** The five steps of the journey as an ordered list; the current one is marked with
 * aria-current="step" and says so in words, a delay or hold is named on its step (in the past
 * tense once over). */
export function JourneyProgress({ steps }: { steps: readonly ProgressStep[] }) {
  const t = useMessages('track');
  return (
    <section className="card progress-card" aria-labelledby="progress-heading">
      <h2 id="progress-heading" className="card-title">
        {t('track.progress.title')}
      </h2>
      <ol className="progress-steps">
        {steps.map((step, index) => (
          <li
            key={step.name}
            className={`progress-step is-${step.state}`}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span className="progress-dot" aria-hidden="true">
              {step.state === 'done' ? <Check size={16} strokeWidth={3} /> : index + 1}
            </span>
            <span className="progress-text">
              <span className="progress-name">{t(STEP_NAME[step.name])}</span>
              <span className={step.state === 'current' ? 'progress-state' : 'visually-hidden'}>
                {step.state === 'current' ? t('track.progress.state_current') : t(STATE_TEXT[step.state])}
              </span>
              {step.markers.map((marker) => (
                <span key={marker.status} className={`progress-marker is-${marker.past ? 'past' : marker.status}`}>
                  <CircleAlert aria-hidden="true" size={14} />
                  <span className="progress-marker-text">
                    <span className="nowrap">{t((marker.past ? PAST_MARKER : MARKER)[marker.status])}</span>{' '}
                    <time className="nowrap" dateTime={marker.localDate}>
                      {formatIsoDate(marker.localDate)}
                    </time>
                  </span>
                </span>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
