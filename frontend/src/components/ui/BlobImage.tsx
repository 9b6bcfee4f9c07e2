import { useCallback } from 'react';

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
      const url = URL.createObjectURL(blob);
      let reader: FileReader | null = null;
      const onError = () => {
        if (!img.src.startsWith('blob:')) {
          onFailed?.();
          return;
        }
        reader = new FileReader();
        reader.onload = () => {
          if (typeof reader?.result === 'string') img.src = reader.result;
        };
        reader.onerror = () => onFailed?.();
        reader.readAsDataURL(blob);
      };
      img.addEventListener('error', onError);
      img.src = url;
      return () => {
        img.removeEventListener('error', onError);
        reader?.abort();
        URL.revokeObjectURL(url);
      };
    },
    [blob, onFailed],
  );
  return <img ref={attach} alt={alt} className={className} decoding="async" />;
}
