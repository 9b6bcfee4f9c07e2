import { PageHero } from '@/components/ui/PageHero';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function FaqPage() {
  useDocumentTitle('FAQ');
  return (
    <PageHero
      eyebrow="Help"
      title="Frequently Asked Questions"
      intro="Answers about tracking, delivery times, rates and international shipping."
    />
  );
}
