/**
 * ServiceCIDR validation, with the API server's messages: kubernetes
 * pkg/apis/networking/validation/validation.go `ValidateServiceCIDR` (the list) and
 * apimachinery pkg/api/validation/ip.go `IsValidCIDR` / `parseCIDR` (each entry). A struct
 * value is printed with Go's `%#v` by apimachinery field/errors.go `ErrorBody`.
 */
import { describe, expect, it } from 'vitest';
import { validateText, type Problem } from './validate';

const doc = (cidrs: string) =>
  `apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata:\n  name: extra\nspec:\n  cidrs: ${cidrs}\n`;
const messages = (text: string): string[] =>
  validateText(text).problems.map((p: Problem) => p.message);

describe('ServiceCIDR spec.cidrs', () => {
  it('accepts the default ServiceCIDR kube-apiserver writes, and a dual-stack pair', () => {
    expect(messages(doc('[10.96.0.0/12]'))).toEqual([]);
    // The API server accepts the pair; the model says, as a warning, that it uses the IPv4 one.
    expect(messages(doc('[10.96.0.0/12, "fd00:10:96::/112"]'))).toEqual([
      'spec.cidrs[1]: IPv6 is not modelled yet: "fd00:10:96::/112" is left out; the model traces the IPv4 family',
    ]);
    const dual = validateText(doc('[10.96.0.0/12, "fd00:10:96::/112"]')).problems;
    expect(dual.map((p) => p.severity)).toEqual(['warning']);
  });

  it('requires at least one CIDR', () => {
    expect(messages(doc('[]'))).toEqual(['spec.cidrs: Required value: at least one CIDR required']);
    const problems = validateText(
      'apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: x}\n',
    ).problems;
    expect(problems).toMatchObject([
      { object: 'ServiceCIDR x', path: 'spec.cidrs', severity: 'error' },
    ]);
  });

  it('holds at most two values', () => {
    expect(messages(doc('[10.0.0.0/24, 10.1.0.0/24, 10.2.0.0/24]'))).toEqual([
      'spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24", "10.2.0.0/24"}}: may only hold up to 2 values',
    ]);
  });

  it('two values must be of different families', () => {
    expect(messages(doc('[10.0.0.0/24, 10.1.0.0/24]'))).toEqual([
      'spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24"}}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    ]);
  });

  it('each value is a valid CIDR in strict form', () => {
    expect(messages(doc('[10.96.0.0]'))).toEqual([
      'spec.cidrs[0]: Invalid value: "10.96.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    expect(messages(doc('[10.96.0.0/33]'))).toEqual([
      'spec.cidrs[0]: Invalid value: "10.96.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    expect(messages(doc('[10.096.0.0/12]'))).toEqual([
      'spec.cidrs[0]: Invalid value: "10.096.0.0/12": must not have leading 0s in IP or prefix length',
    ]);
    expect(messages(doc('[10.96.0.1/12]'))).toEqual([
      'spec.cidrs[0]: Invalid value: "10.96.0.1/12": must not have bits set beyond the prefix length',
    ]);
  });

  it('points at the offending entry', () => {
    const [p] = validateText(doc('[10.96.0.0/12, "fd00::1/64"]')).problems;
    expect(p).toMatchObject({ path: 'spec.cidrs[1]', line: 6, column: 25 });
  });
});
