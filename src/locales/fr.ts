import type { Messages } from './messages.ts';

/** French strings of every element, loaded only when an element's language is French. */
const messages: Messages = {
  // Shared by the Marketing elements
  'marketing.error.unavailable': 'Le service de fidélité ne répond pas pour le moment. Réessayez dans un instant.',
  'marketing.retry': 'Réessayer',
  'marketing.error.network': 'Le service de fidélité est injoignable. Vérifiez votre connexion.',
  'marketing.error.rate_limited': 'Trop de demandes. Réessayez {when}.',
  'marketing.error.rate_limited_soon': 'Trop de demandes. Réessayez dans un instant.',
  'marketing.error.not_found': 'Cette offre est introuvable.',
  'marketing.error.unauthorized': 'Veuillez vous reconnecter.',
  'marketing.error.signin_required': 'Veuillez d’abord vous connecter.',
  'marketing.error.forbidden': 'Ceci ne vous est pas accessible.',
  'marketing.error.invalid_response': 'Le service de fidélité a envoyé une réponse illisible.',
  'marketing.error.config': 'Ce widget est mal configuré.',
  'marketing.error.other': 'Une erreur est survenue. Veuillez réessayer.',
  // <loyalty-signin-button>
  'signin.label': 'Se connecter avec son portefeuille fidélité',
  'signin.pending': 'Connexion…',
  'signin.signed-in-as': 'Connecté en tant que {username}',
  'signin.signed-in': 'Connecté',
  'signin.signout': 'Se déconnecter',
  'signin.unavailable': "{program} n'est pas encore disponible pour la connexion.",
  'signin.unavailable-generic': "Ce programme de fidélité n'est pas encore disponible pour la connexion.",
  'signin.error.access_denied':
    'Vous avez annulé la connexion. Sans connexion, les récompenses ne peuvent pas être créditées sur votre portefeuille.',
  'signin.error.popup_blocked':
    'Votre navigateur a bloqué la fenêtre de connexion. Autorisez les fenêtres pour ce site et réessayez.',
  'signin.error.popup_closed': 'La fenêtre de connexion a été fermée avant la fin. Réessayez quand vous voulez.',
  'signin.error.invalid_token': "La connexion n'a pas pu être vérifiée ; elle n'a pas été utilisée. Réessayez.",
  'signin.error.state_mismatch':
    "Cette réponse ne correspond à aucune connexion commencée ici ; elle n'a pas été utilisée. Réessayez.",
  'signin.error.network': 'Le service de fidélité est injoignable. Vérifiez votre connexion et réessayez.',
  'signin.error.config': "La connexion n'est pas correctement configurée sur ce site.",
  'signin.expired': 'Votre session a pris fin. Reconnectez-vous pour continuer.',
  // <campaign-carousel>
  'carousel.label': 'Campagnes',
  'carousel.roledescription': 'carrousel',
  'carousel.slide': 'diapositive',
  'carousel.position': '{index} sur {count}',
  'carousel.previous': 'Diapositive précédente',
  'carousel.next': 'Diapositive suivante',
  'carousel.stop': 'Arrêter le défilement automatique',
  'carousel.start': 'Démarrer le défilement automatique',
  'carousel.empty': 'Aucune campagne pour le moment. Revenez bientôt !',
  'carousel.searching': 'Recherche d’autres campagnes…',
  'carousel.notFoundYet': 'Aucune campagne trouvée pour l’instant. Il en reste à parcourir.',
  'carousel.keepLooking': 'Continuer à chercher',
  // <coupon-claim>
  'coupon.get': 'Obtenir le coupon',
  'coupon.getting': 'Obtention de votre coupon…',
  'coupon.another': 'Obtenir un autre coupon',
  'coupon.signin': 'Connectez-vous pour obtenir ce coupon',
  'coupon.signinMissing': 'Connectez-vous d’abord avec le bouton de connexion de cette page.',
  'coupon.codeLabel': 'Votre code de coupon',
  'coupon.copy': 'Copier le code',
  'coupon.copied': 'Code du coupon copié.',
  'coupon.copyFailed': 'La copie n’est pas disponible ici : sélectionnez le code et copiez-le.',
  'coupon.claimed': 'Votre coupon est prêt : {code}',
  'coupon.none': 'Cette campagne ne propose pas de coupon.',
  // <business-directory>
  'directory.label': 'Commerces',
  'directory.empty': 'Aucun commerce à afficher pour le moment.',
  'directory.more': 'Afficher plus de commerces',
  'directory.loadingMore': 'Chargement d’autres commerces…',
  'directory.count': '{count} commerces affichés',
  'directory.phone': 'Téléphone',
  'directory.website': 'Site web',
  // <loyalty-launcher>
  'launcher.label': 'Récompenses',
  'launcher.close': 'Fermer les récompenses',
  'launcher.join': 'Rejoindre le programme',
  'launcher.intro': 'Connectez-vous avec votre portefeuille fidélité pour obtenir des coupons et voir vos récompenses.',
  'launcher.account': 'Votre compte',
  'launcher.member': 'Vos coupons de cette visite et les commerces partenaires du programme sont ci-dessous.',
  'launcher.campaigns': 'Offres',
  'launcher.coupons': 'Vos coupons',
  'launcher.no-coupons': 'Les coupons obtenus pendant cette visite s’affichent ici.',
  'launcher.partners': 'Commerces partenaires',
};

export default messages;
