import type { Messages } from '../../shared/i18n.ts';

/**
 * The sign-in button's strings (English, French, Arabic). The element registers them with
 * registerMessages(); merchants override any of them the same way.
 */
export const signinButtonMessages: Record<string, Messages> = {
  en: {
    'signin.label': 'Sign in with your loyalty wallet',
    'signin.pending': 'Signing in…',
    'signin.signed-in-as': 'Signed in as {username}',
    'signin.signed-in': 'Signed in',
    'signin.signout': 'Sign out',
    'signin.unavailable': '{program} is not available for sign-in yet.',
    'signin.unavailable-generic': 'This loyalty program is not available for sign-in yet.',
    'signin.error.access_denied': "You cancelled the sign-in. Rewards can't be credited to your wallet without signing in.",
    'signin.error.popup_blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
    'signin.error.popup_closed': 'The sign-in window was closed before you finished. Try again when you are ready.',
    'signin.error.invalid_token': "The sign-in could not be verified, so it wasn't used. Please try again.",
    'signin.error.state_mismatch': "This sign-in answer didn't match a sign-in started here, so it wasn't used. Please try again.",
    'signin.error.network': "We couldn't reach the loyalty service. Check your connection and try again.",
    'signin.error.config': 'Sign-in is not set up correctly on this site.',
  },
  fr: {
    'signin.label': 'Se connecter avec son portefeuille fidélité',
    'signin.pending': 'Connexion…',
    'signin.signed-in-as': 'Connecté en tant que {username}',
    'signin.signed-in': 'Connecté',
    'signin.signout': 'Se déconnecter',
    'signin.unavailable': "{program} n'est pas encore disponible pour la connexion.",
    'signin.unavailable-generic': "Ce programme de fidélité n'est pas encore disponible pour la connexion.",
    'signin.error.access_denied': 'Vous avez annulé la connexion. Sans connexion, les récompenses ne peuvent pas être créditées sur votre portefeuille.',
    'signin.error.popup_blocked': 'Votre navigateur a bloqué la fenêtre de connexion. Autorisez les fenêtres pour ce site et réessayez.',
    'signin.error.popup_closed': 'La fenêtre de connexion a été fermée avant la fin. Réessayez quand vous voulez.',
    'signin.error.invalid_token': "La connexion n'a pas pu être vérifiée ; elle n'a pas été utilisée. Réessayez.",
    'signin.error.state_mismatch': "Cette réponse ne correspond à aucune connexion commencée ici ; elle n'a pas été utilisée. Réessayez.",
    'signin.error.network': 'Le service de fidélité est injoignable. Vérifiez votre connexion et réessayez.',
    'signin.error.config': "La connexion n'est pas correctement configurée sur ce site.",
  },
  ar: {
    'signin.label': 'سجّل الدخول بمحفظة الولاء',
    'signin.pending': 'جارٍ تسجيل الدخول…',
    'signin.signed-in-as': 'تم تسجيل الدخول باسم {username}',
    'signin.signed-in': 'تم تسجيل الدخول',
    'signin.signout': 'تسجيل الخروج',
    'signin.unavailable': '{program} غير متاح لتسجيل الدخول بعد.',
    'signin.unavailable-generic': 'برنامج الولاء هذا غير متاح لتسجيل الدخول بعد.',
    'signin.error.access_denied': 'ألغيت تسجيل الدخول. لا يمكن إضافة المكافآت إلى محفظتك بدون تسجيل الدخول.',
    'signin.error.popup_blocked': 'حظر المتصفح نافذة تسجيل الدخول. اسمح بالنوافذ المنبثقة لهذا الموقع وحاول مجددًا.',
    'signin.error.popup_closed': 'أُغلقت نافذة تسجيل الدخول قبل الانتهاء. حاول مجددًا متى شئت.',
    'signin.error.invalid_token': 'تعذّر التحقق من تسجيل الدخول فلم يُستخدم. حاول مجددًا.',
    'signin.error.state_mismatch': 'هذا الرد لا يطابق تسجيل دخول بدأ هنا فلم يُستخدم. حاول مجددًا.',
    'signin.error.network': 'تعذّر الوصول إلى خدمة الولاء. تحقّق من اتصالك وحاول مجددًا.',
    'signin.error.config': 'تسجيل الدخول غير مُعدّ بشكل صحيح على هذا الموقع.',
  },
};
