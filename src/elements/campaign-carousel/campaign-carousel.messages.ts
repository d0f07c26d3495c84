import type { Messages } from '../../shared/i18n.ts';

export const carouselMessages: Record<string, Messages> = {
  en: {
    'carousel.label': 'Campaigns',
    'carousel.roledescription': 'carousel',
    'carousel.slide': 'slide',
    'carousel.position': '{index} of {count}',
    'carousel.previous': 'Previous slide',
    'carousel.next': 'Next slide',
    'carousel.stop': 'Stop automatic slide show',
    'carousel.start': 'Start automatic slide show',
    'carousel.empty': 'No campaigns right now. Come back soon!',
  },
  fr: {
    'carousel.label': 'Campagnes',
    'carousel.roledescription': 'carrousel',
    'carousel.slide': 'diapositive',
    'carousel.position': '{index} sur {count}',
    'carousel.previous': 'Diapositive précédente',
    'carousel.next': 'Diapositive suivante',
    'carousel.stop': 'Arrêter le défilement automatique',
    'carousel.start': 'Démarrer le défilement automatique',
    'carousel.empty': 'Aucune campagne pour le moment. Revenez bientôt !',
  },
  ar: {
    'carousel.label': 'الحملات',
    'carousel.roledescription': 'عرض دوّار',
    'carousel.slide': 'شريحة',
    'carousel.position': '{index} من {count}',
    'carousel.previous': 'الشريحة السابقة',
    'carousel.next': 'الشريحة التالية',
    'carousel.stop': 'إيقاف العرض التلقائي للشرائح',
    'carousel.start': 'تشغيل العرض التلقائي للشرائح',
    'carousel.empty': 'لا توجد حملات حاليًا. عُد قريبًا!',
  },
};
