import type { Messages } from '../../shared/i18n.ts';

export const directoryMessages: Record<string, Messages> = {
  en: {
    'directory.label': 'Businesses',
    'directory.empty': 'No businesses to show yet.',
    'directory.more': 'Show more businesses',
    'directory.loadingMore': 'Loading more businesses…',
    'directory.count': '{count} businesses shown',
    'directory.phone': 'Phone',
    'directory.website': 'Website',
  },
  fr: {
    'directory.label': 'Commerces',
    'directory.empty': 'Aucun commerce à afficher pour le moment.',
    'directory.more': 'Afficher plus de commerces',
    'directory.loadingMore': 'Chargement d’autres commerces…',
    'directory.count': '{count} commerces affichés',
    'directory.phone': 'Téléphone',
    'directory.website': 'Site web',
  },
  ar: {
    'directory.label': 'الأنشطة التجارية',
    'directory.empty': 'لا توجد أنشطة تجارية لعرضها حاليًا.',
    'directory.more': 'عرض المزيد من الأنشطة التجارية',
    'directory.loadingMore': 'جارٍ تحميل المزيد من الأنشطة التجارية…',
    'directory.count': 'عدد الأنشطة التجارية المعروضة: {count}',
    'directory.phone': 'الهاتف',
    'directory.website': 'الموقع الإلكتروني',
  },
};
