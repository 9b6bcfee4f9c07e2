import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ImageOff } from 'lucide-react';
import { ProofOfDeliveryImageKind, type ProofOfDelivery } from '@/gen/logistics/v1/shipment_pb';
import { BlobImage } from '@/components/ui/BlobImage';
import { useMessages } from '@/lib/i18n';
import './proof-of-delivery.css';

/** The bytes of an image as the API answers them (ProofOfDeliveryImage). */
type ImageBytes = { contentType: string; data: Uint8Array };

type ProofImageProps = {
  /** Fetches the image; called once it is near the screen. */
  load: (signal: AbortSignal) => Promise<ImageBytes>;
  /** Names the image in the query cache: another value loads it again (a replaced proof). */
  loadKey: string;
  alt: string;
  caption: string;
  kind: 'signature' | 'photo';
};

const FAILED: Record<ProofImageProps['kind'], string> = {
  signature: 'track.proof.signature_failed',
  photo: 'track.proof.photo_failed',
};

/** One image of a proof of delivery (signature or photo), with its caption: fetched only when
 * it comes near the screen, with Try again when that fails. */
export function ProofImage({ load, loadKey, alt, caption, kind }: ProofImageProps) {
  const t = useMessages('track');
  const figure = useRef<HTMLElement>(null);
  const [near, setNear] = useState(false);
  // The image whose bytes the browser could not show.
  const [broken, setBroken] = useState<Blob | null>(null);
  const query = useQuery({
    queryKey: ['proof-of-delivery-image', kind, loadKey],
    queryFn: async ({ signal }) => {
      const image = await load(signal);
      return new Blob([image.data as Uint8Array<ArrayBuffer>], { type: image.contentType || 'image/png' });
    },
    enabled: near,
    // The same key is the same image: a replaced proof comes with another key.
    staleTime: Infinity,
  });
  const blob = query.isFetching ? undefined : query.data;
  const failed = !query.isFetching && (query.isError || (blob !== undefined && blob === broken));
  const waiting = !blob && !failed;
  const onFailed = useCallback(() => setBroken(blob ?? null), [blob]);

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

  return (
    <figure ref={figure} className={`proof-image proof-image-${kind}`} aria-busy={waiting}>
      <div className="proof-image-frame">
        {blob && !failed && <BlobImage blob={blob} alt={alt} onFailed={onFailed} />}
        {waiting && <span className="proof-image-wait">{t('track.proof.loading')}</span>}
        {failed && (
          <div className="proof-image-failed">
            <ImageOff aria-hidden="true" size={20} />
            <span>{t(FAILED[kind])}</span>
            <button type="button" className="btn btn-outline proof-image-retry" onClick={() => void query.refetch()}>
              {t('track.proof.retry')}
            </button>
          </div>
        )}
      </div>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

type ProofImagesProps = {
  proof: ProofOfDelivery;
  /** Names the images in the query cache (see ProofImage). */
  loadKey: string;
  /** The fetch of one kind of image, as the page may call it. */
  load: (kind: ProofOfDeliveryImageKind) => ProofImageProps['load'];
};

/** The signature and the photo a proof of delivery has, each captioned and fetched near the screen. */
export function ProofImages({ proof, loadKey, load }: ProofImagesProps) {
  const t = useMessages('track');
  if (!proof.hasSignature && !proof.hasPhoto) return null;
  return (
    <div className="proof-images">
      {proof.hasSignature && (
        <ProofImage
          kind="signature"
          caption={t('track.proof.signature')}
          alt={t('track.proof.signature_alt', { name: proof.recipientName })}
          loadKey={loadKey}
          load={load(ProofOfDeliveryImageKind.SIGNATURE)}
        />
      )}
      {proof.hasPhoto && (
        <ProofImage
          kind="photo"
          caption={t('track.proof.photo')}
          alt={t('track.proof.photo_alt')}
          loadKey={loadKey}
          load={load(ProofOfDeliveryImageKind.PHOTO)}
        />
      )}
    </div>
  );
}
