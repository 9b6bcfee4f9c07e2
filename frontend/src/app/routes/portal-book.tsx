import { BookingPage } from '@/features/portal/components/BookingForm';

/** /portal/book: a booking. */
export default function PortalBookPage() {
  return <BookingPage />;
}
