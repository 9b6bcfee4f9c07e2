import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Camera, ImageUp, ScanLine, Square } from 'lucide-react';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { useMessages } from '@/lib/i18n';
import { trackingNumberOf } from '../utils/label-code';
import { prepareLabelReader, readLabel } from '../utils/read-label';

/** How often a camera frame is read while scanning. */
const FRAME_MS = 250;

/** Finds a shipment by its label: the camera, a photo of the label, or the number typed. */
export function ScanPanel({ onFound }: { onFound: (trackingNumber: string) => void }) {
  const t = useMessages('courier');
  const [scanning, setScanning] = useState(false);
  const [reading, setReading] = useState(false);
  const [message, setMessage] = useState('');
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState('');
  // Ready before the courier goes where there is no signal.
  useEffect(() => prepareLabelReader(), []);

  const readPhoto = async (file: File | undefined) => {
    if (!file) return;
    setMessage('');
    setReading(true);
    try {
      const number = await readLabel(file);
      if (number) onFound(number);
      else setMessage(t('courier.scan.not_found'));
    } catch {
      setMessage(t('courier.scan.not_found'));
    } finally {
      setReading(false);
    }
  };

  const open = (event: FormEvent) => {
    event.preventDefault();
    const number = trackingNumberOf(typed);
    if (!number) {
      setTypedError(t('courier.scan.invalid'));
      return;
    }
    setTypedError('');
    onFound(number);
  };

  return (
    <section className="courier-card courier-scan" aria-labelledby="courier-scan-heading">
      <h2 id="courier-scan-heading">{t('courier.scan.heading')}</h2>
      {scanning ? (
        <CameraScanner
          onFound={(number) => {
            setScanning(false);
            onFound(number);
          }}
          onFailed={() => {
            setScanning(false);
            setMessage(t('courier.scan.camera_failed'));
          }}
          onStop={() => setScanning(false)}
        />
      ) : (
        <div className="courier-scan-buttons">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setMessage('');
              setScanning(true);
            }}
          >
            <ScanLine aria-hidden="true" size={20} />
            {t('courier.scan.camera')}
          </button>
          <label className="btn btn-outline courier-photo-button">
            <ImageUp aria-hidden="true" size={20} />
            {t('courier.scan.photo')}
            <input
              type="file"
              accept="image/*"
              capture="environment"
              className="visually-hidden"
              disabled={reading}
              onChange={(event) => {
                void readPhoto(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </label>
        </div>
      )}
      <p className="courier-scan-message" role="status">
        {reading ? t('courier.scan.reading') : message}
      </p>
      <form className="courier-number-form" onSubmit={open} noValidate>
        <Field id="courier-number" label={t('courier.scan.number')} error={typedError}>
          <input
            className="input mono"
            inputMode="text"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            {...fieldInputProps('courier-number', typedError)}
          />
        </Field>
        <button type="submit" className="btn btn-outline">
          {t('courier.scan.open')}
        </button>
      </form>
    </section>
  );
}

/** The back camera's picture, read every FRAME_MS until a label's code is found. */
function CameraScanner({
  onFound,
  onFailed,
  onStop,
}: {
  onFound: (trackingNumber: string) => void;
  onFailed: () => void;
  onStop: () => void;
}) {
  const t = useMessages('courier');
  const video = useRef<HTMLVideoElement>(null);
  const callbacks = useRef({ onFound, onFailed });
  useEffect(() => {
    callbacks.current = { onFound, onFailed };
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    const scan = async () => {
      const element = video.current;
      if (stopped || !element) return;
      const number = element.readyState >= 2 ? await readLabel(element).catch(() => null) : null;
      if (stopped) return;
      if (number) callbacks.current.onFound(number);
      else timer = window.setTimeout(() => void scan(), FRAME_MS);
    };
    if (!navigator.mediaDevices) {
      callbacks.current.onFailed();
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then((media) => {
        if (stopped) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = media;
        if (video.current) {
          video.current.srcObject = media;
          void video.current.play().catch(() => undefined);
        }
        void scan();
      })
      .catch(() => callbacks.current.onFailed());
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <div className="courier-camera">
      <video ref={video} muted playsInline aria-label={t('courier.scan.looking')} />
      <p className="muted">
        <Camera aria-hidden="true" size={16} /> {t('courier.scan.looking')}
      </p>
      <button type="button" className="btn btn-outline" onClick={onStop}>
        <Square aria-hidden="true" size={16} />
        {t('courier.scan.stop')}
      </button>
    </div>
  );
}
