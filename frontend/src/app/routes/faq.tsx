import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDown } from 'lucide-react';
import { motion } from '@/components/ui/motion';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';

const QUESTIONS = [
  {
    question: 'How do I track my package?',
    answer: 'Enter your tracking number (it starts with PSE) on the Track Package page, or open the tracking link in your confirmation e-mail. You will see the current status, location and the full history of your shipment.',
  },
  {
    question: 'What shipping services do you offer?',
    answer: 'Air freight, sea freight, ground transport and warehousing, plus customs clearance, cargo insurance, packaging and express delivery.',
  },
  {
    question: 'How are shipping rates calculated?',
    answer: 'Rates depend on the actual and volumetric weight, the dimensions, the origin and destination, the service you choose and any extras such as insurance or customs clearance.',
  },
  {
    question: 'How long does delivery take?',
    answer: 'Air freight takes 1-3 business days, ground transport 2-5 business days and sea freight 10-30 days, depending on the route and customs.',
  },
  {
    question: 'Do you ship internationally?',
    answer: `Yes. We deliver to over ${company.figures.countries.replace('+', '')} countries and handle the customs paperwork for you.`,
  },
  {
    question: 'Which items can I not ship?',
    answer: 'Explosives, flammable liquids and gases, illegal drugs, weapons, live animals and other goods restricted by law or by the carriers. Ask us when in doubt.',
  },
  {
    question: 'How should I pack my shipment?',
    answer: 'Use a sturdy box, cushion every item, seal all seams with strong tape and put the label on the largest side. Fragile goods need at least 5 cm of padding all around.',
  },
  {
    question: 'What if my package is lost or damaged?',
    answer: `Contact us at ${company.supportEmail} with your tracking number and photos of any damage. We investigate at once and compensate according to your shipment's declared value or insurance.`,
  },
];

/** One answer open at a time; the items appear one after the other, 100 ms apart. */
export default function FaqPage() {
  useDocumentTitle('FAQ');
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  return (
    <>
      <PageHero
        eyebrow="Help"
        title="Frequently Asked Questions"
        intro="Answers about tracking, delivery times, rates and international shipping."
      />
      <div className="container faq">
        {QUESTIONS.map(({ question, answer }, index) => (
          // `name` makes the browser keep one item open even before the page's script runs.
          <details key={question} name="faq" open={openIndex === index} {...motion('fade', index * 100, 'faq-item')}>
            <summary
              onClick={(event) => {
                event.preventDefault();
                setOpenIndex(openIndex === index ? null : index);
              }}
            >
              <span>{question}</span>
              <ChevronDown className="faq-chevron" aria-hidden="true" size={20} />
            </summary>
            <p>{answer}</p>
          </details>
        ))}
        <p className="faq-more">
          Still have questions?{' '}
          <Link to="/contact" className="btn btn-primary">
            Contact Us
          </Link>
        </p>
      </div>
    </>
  );
}
