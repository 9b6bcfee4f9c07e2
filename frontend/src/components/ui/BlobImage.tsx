import { useCallback } from 'react';

// Set once the page's Content-Security-Policy refused a `blob:` image: later images go straight
// to a `data:` URL (one refusal in the console per page, not one per image).
let blobRefused = false;

type BlobImageProps = {
  blob: Blob;
  alt: string;
  className?: string;
  /** The image could not be shown at all. */
  onFailed?: () => void;
};

/**
 * An image of bytes held in the page: shown through an object URL made when the <img> mounts
 * and revoked when it unmounts. Should the page's Content-Security-Policy refuse `blob:`
 * images, it is shown as a `data:` URL instead.
 */
export function BlobImage({ blob, alt, className, onFailed }: BlobImageProps) {
  const attach = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      let url: string | null = null;
      let reader: FileReader | null = null;
      const asDataUrl = () => {
        reader = new FileReader();
        reader.onload = () => {
          if (typeof reader?.result === 'string') img.src = reader.result;
        };
        reader.onerror = () => onFailed?.();
        reader.readAsDataURL(blob);
      };
      const onError = () => {
        if (!img.src.startsWith('blob:')) {
          onFailed?.();
          return;
        }
        blobRefused = true;
        asDataUrl();
      };
      img.addEventListener('error', onError);
      if (blobRefused) {
        asDataUrl();
      } else {
        url = URL.createObjectURL(blob);
        img.src = url;
      }
      return () => {
        img.removeEventListener('error', onError);
        reader?.abort();
        if (url) URL.revokeObjectURL(url);
      };
    },
    [blob, onFailed],
  );
  return <img ref={attach} alt={alt} className={className} decoding="async" />;
}
