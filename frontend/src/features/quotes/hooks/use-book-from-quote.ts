import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { portalBookFromQuotePath, portalLoginPath } from '@/config/quote-links';
import { signedInAsCustomer } from '../api/quote';

/** "Book this": a customer's user signed in here goes to the booking form prefilled from the
 * quote; anyone else to the portal's sign-in, which goes on to that booking. */
export function useBookFromQuote(): { book: (token: string, serviceCode: string) => Promise<void>; opening: string | null } {
  const navigate = useNavigate();
  // The service whose booking is opening.
  const [opening, setOpening] = useState<string | null>(null);
  const book = async (token: string, serviceCode: string) => {
    if (opening) return;
    setOpening(serviceCode);
    const booking = portalBookFromQuotePath(token, serviceCode);
    try {
      navigate((await signedInAsCustomer()) ? booking : portalLoginPath(booking));
    } finally {
      setOpening(null);
    }
  };
  return { book, opening };
}
