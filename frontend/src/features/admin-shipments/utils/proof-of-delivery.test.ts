import { describe, expect, it } from 'vitest';
import {
  MAX_PHOTO_BYTES,
  fieldMessage,
  photoError,
  proofInputErrors,
  proofViolations,
  sniffImageType,
  wantsProof,
} from './proof-of-delivery';

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);
const TEXT_HEAD = new TextEncoder().encode('not an image');

describe('sniffImageType', () => {
  it('knows a PNG and a JPEG by their first bytes', () => {
    expect(sniffImageType(PNG_HEAD)).toBe('image/png');
    expect(sniffImageType(JPEG_HEAD)).toBe('image/jpeg');
  });

  it('knows nothing else, nor a file cut short', () => {
    expect(sniffImageType(TEXT_HEAD)).toBeNull();
    expect(sniffImageType(PNG_HEAD.slice(0, 4))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    // GIF
    expect(sniffImageType(new TextEncoder().encode('GIF89a..'))).toBeNull();
  });
});

describe('photoError', () => {
  it("accepts a JPEG or PNG of up to 8 MB, in the server's words otherwise", () => {
    expect(photoError(1234, PNG_HEAD)).toBeNull();
    expect(photoError(MAX_PHOTO_BYTES, JPEG_HEAD)).toBeNull();
    expect(photoError(MAX_PHOTO_BYTES + 1, JPEG_HEAD)).toBe('Photo: must be at most 8 MB');
    expect(photoError(12, TEXT_HEAD)).toBe('Photo: must be a JPEG or PNG image');
    expect(photoError(0, new Uint8Array())).toBe('Photo: must be a JPEG or PNG image');
  });
});

describe('proofInputErrors', () => {
  const none = { recipientName: '', signed: false, hasPhoto: false, photoError: null, required: false };

  it('asks nothing when the proof is left out', () => {
    expect(proofInputErrors(none)).toEqual({});
    expect(wantsProof('   ')).toBe(false);
    expect(wantsProof(' Ana ')).toBe(true);
  });

  it('needs a name with a signature or a photo, or when the form is only for the proof', () => {
    const required = { recipientName: 'Recipient name: is required' };
    expect(proofInputErrors({ ...none, signed: true })).toEqual(required);
    expect(proofInputErrors({ ...none, hasPhoto: true })).toEqual(required);
    expect(proofInputErrors({ ...none, recipientName: '  ', required: true })).toEqual(required);
    expect(proofInputErrors({ ...none, recipientName: 'Ana', signed: true, hasPhoto: true })).toEqual({});
  });

  it('counts characters, not UTF-16 units, up to 100', () => {
    expect(proofInputErrors({ ...none, recipientName: '😀'.repeat(100) })).toEqual({});
    expect(proofInputErrors({ ...none, recipientName: 'a'.repeat(101) })).toEqual({
      recipientName: 'Recipient name: must be at most 100 characters',
    });
  });

  it("keeps the photo's error", () => {
    expect(proofInputErrors({ ...none, recipientName: 'Ana', hasPhoto: true, photoError: 'Photo: x' })).toEqual({
      photo: 'Photo: x',
    });
  });
});

describe('proofViolations', () => {
  it("puts each of the server's violations at its input, with the input's label", () => {
    expect(
      proofViolations([
        { field: 'recipient_name', description: 'is required' },
        { field: 'signature_png', description: 'must be at most 512 KB' },
        { field: 'photo', description: 'photo: must be a JPEG or PNG image' },
        { field: 'id', description: 'must be a shipment id' },
      ]),
    ).toEqual({
      fields: {
        recipientName: 'Recipient name: is required',
        signature: 'Signature: must be at most 512 KB',
        photo: 'Photo: must be a JPEG or PNG image',
      },
      general: ['id: must be a shipment id'],
    });
  });

  it('keeps a description that only looks like a field name', () => {
    expect(fieldMessage('photo', 'note: too dark')).toBe('Photo: note: too dark');
  });
});
