import { company } from '@/config/company';
import { useMessages } from '@/lib/i18n';

/** The company's opening hours: the brand file's, else the site's own in the visitor's language. */
export function useBusinessHours(): { days: string; hours: string }[] {
  const t = useMessages('common');
  if (company.businessHours.length > 0) return company.businessHours;
  return [
    { days: t('common.hours.weekdays'), hours: t('common.hours.weekdays_hours') },
    { days: t('common.hours.saturday'), hours: t('common.hours.saturday_hours') },
    { days: t('common.hours.sunday'), hours: t('common.hours.closed') },
  ];
}
