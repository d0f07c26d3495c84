/** `loyalty-widgets/proxy/doctor`: checks a Marketing API for what the widgets need (see hosts/doctor.ts). */
export * from './hosts/doctor.ts';
