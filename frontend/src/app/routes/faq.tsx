import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ChevronDown } from 'lucide-react';
import { motion } from '@/components/ui/motion';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import './faq.css';

const QUESTIONS = [
  { question: 'faq.tracking.question', answer: 'faq.tracking.answer' },
  { question: 'faq.services.question', answer: 'faq.services.answer' },
  { question: 'faq.rates.question', answer: 'faq.rates.answer' },
  { question: 'faq.delivery.question', answer: 'faq.delivery.answer' },
  { question: 'faq.international.question', answer: 'faq.international.answer' },
  { question: 'faq.prohibited.question', answer: 'faq.prohibited.answer' },
  { question: 'faq.packing.question', answer: 'faq.packing.answer' },
  { question: 'faq.lost.question', answer: 'faq.lost.answer' },
] as const;

/** The company values the answers name. */
const VALUES = { countries: company.figures.countries.replace('+', ''), email: company.supportEmail };

/** One answer open at a time; the items appear one after the other, 100 ms apart. */
export default function FaqPage() {
  const t = useMessages('faq');
  const { path } = useLanguage();
  useDocumentTitle(t('faq.title'));
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  return (
    <>
      <PageHero eyebrow={t('faq.hero.eyebrow')} title={t('faq.hero.title')} intro={t('faq.hero.intro')} />
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
              <span>{t(question)}</span>
              <ChevronDown className="faq-chevron" aria-hidden="true" size={20} />
            </summary>
            <p>{t(answer, VALUES)}</p>
          </details>
        ))}
        <p className="faq-more">
          {t('faq.more.text')}{' '}
          <Link to={path('/contact')} className="btn btn-primary">
            {t('faq.more.contact')}
          </Link>
        </p>
      </div>
    </>
  );
}
