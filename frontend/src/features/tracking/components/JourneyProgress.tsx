import { Check, CircleAlert } from 'lucide-react';
import { formatIsoDate } from '@/utils/format';
import type { ProgressStep } from '../utils/progress';

const STATE_TEXT: Record<ProgressStep['state'], string> = {
  done: 'completed',
  current: 'current step',
  upcoming: 'not reached yet',
};

/** The five steps of the journey as an ordered list; the current one is marked with
 * aria-current="step" and says so in words, a delay or hold is named on its step. */
export function JourneyProgress({ steps }: { steps: readonly ProgressStep[] }) {
  return (
    <section className="card progress-card" aria-labelledby="progress-heading">
      <h2 id="progress-heading" className="card-title">
        Progress
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
              <span className="progress-name">{step.name}</span>
              <span className={step.state === 'current' ? 'progress-state' : 'visually-hidden'}>
                {step.state === 'current' ? 'Current step' : `, ${STATE_TEXT[step.state]}`}
              </span>
              {step.markers.map((marker) => (
                <span key={marker.status} className={`progress-marker is-${marker.status}`}>
                  <CircleAlert aria-hidden="true" size={14} />
                  {marker.label} <time dateTime={marker.localDate}>{formatIsoDate(marker.localDate)}</time>
                </span>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
