import { useCallback, useEffect, useRef, useState } from 'react';
import { ImageOff } from 'lucide-react';
import { BlobImage } from '@/components/ui/BlobImage';
import { useMessages } from '@/lib/i18n';
import './proof-of-delivery.css';

/** The bytes of an image as the API answers them (ProofOfDeliveryImage). */
type ImageBytes = { contentType: string; data: Uint8Array };

type ProofImageProps = {
  /** Fetches the image; called once it is near the screen. */
  load: (signal: AbortSignal) => Promise<ImageBytes>;
  /** Another value loads the image again (a replaced proof). */
  loadKey: string;
  alt: string;
  caption: string;
  kind: 'signature' | 'photo';
};

type Loaded = { key: string; blob?: Blob; failed?: boolean };

const FAILED: Record<ProofImageProps['kind'], string> = {
  signature: 'track.proof.signature_failed',
  photo: 'track.proof.photo_failed',
};

/** One image of a proof of delivery (signature or photo), with its caption: fetched only when
 * it comes near the screen, with Try again when that fails. */
export function ProofImage({ load, loadKey, alt, caption, kind }: ProofImageProps) {
  const t = useMessages('track');
  const figure = useRef<HTMLElement>(null);
  const latestLoad = useRef(load);
  useEffect(() => {
    latestLoad.current = load;
  });
  const [near, setNear] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const key = `${loadKey}#${attempt}`;

  useEffect(() => {
    const element = figure.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      const timer = setTimeout(() => setNear(true));
      return () => clearTimeout(timer);
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!near) return;
    const controller = new AbortController();
    latestLoad
      .current(controller.signal)
      .then((image) => {
        if (controller.signal.aborted) return;
        const bytes = image.data as Uint8Array<ArrayBuffer>;
        setLoaded({ key, blob: new Blob([bytes], { type: image.contentType || 'image/png' }) });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ key, failed: true });
      });
    return () => controller.abort();
  }, [near, key]);

  const onFailed = useCallback(() => setLoaded({ key, failed: true }), [key]);
  const current = loaded?.key === key ? loaded : null;

  return (
    <figure ref={figure} className={`proof-image proof-image-${kind}`} aria-busy={!current}>
      <div className="proof-image-frame">
        {current?.blob && <BlobImage blob={current.blob} alt={alt} onFailed={onFailed} />}
        {!current && <span className="proof-image-wait">{t('track.proof.loading')}</span>}
        {current?.failed && (
          <div className="proof-image-failed">
            <ImageOff aria-hidden="true" size={20} />
            <span>{t(FAILED[kind])}</span>
            <button type="button" className="btn btn-outline proof-image-retry" onClick={() => setAttempt((n) => n + 1)}>
              {t('track.proof.retry')}
            </button>
          </div>
        )}
      </div>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
