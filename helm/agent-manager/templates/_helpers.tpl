{{/*
Named templates shared by the chart's manifests. Every value a manifest derives
(names, labels, the managed namespaces, the OAuth fallbacks and the trusted
audiences) is computed here once.
*/}}

{{/* Chart name, or nameOverride. */}}
{{- define "agent-manager.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name: fullnameOverride, else <release>-<name> unless the release already holds the name. */}}
{{- define "agent-manager.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
helm.sh/chart label value. A label value must start and end with an alphanumeric
character, and the 63-character cut of a long pre-release version can end on any
run of ".", "-" or "_" (from "+"), so the whole run is trimmed at both ends.
*/}}
{{- define "agent-manager.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimAll "-._" -}}
{{- end -}}

{{/*
Labels every object carries: the chart's own, then commonLabels. commonLabels may not
redefine one of the chart's (the selector, the version and the owner are the chart's to say),
and the pods' selector never includes them, so changing them is an ordinary upgrade.
*/}}
{{- define "agent-manager.labels" -}}
helm.sh/chart: {{ include "agent-manager.chart" . }}
{{ include "agent-manager.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
application.giantswarm.io/team: {{ index .Chart.Annotations "io.giantswarm.application.team" | quote }}
{{- with .Values.commonLabels }}
{{- range $key := list "helm.sh/chart" "app.kubernetes.io/name" "app.kubernetes.io/instance" "app.kubernetes.io/version" "app.kubernetes.io/managed-by" "application.giantswarm.io/team" }}
{{- if hasKey $.Values.commonLabels $key }}
{{- fail (printf "commonLabels may not set %s: the chart sets it on every object" $key) }}
{{- end }}
{{- end }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels the Deployment selects its pods by (never change on upgrade). */}}
{{- define "agent-manager.selectorLabels" -}}
app.kubernetes.io/name: {{ include "agent-manager.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* ServiceAccount name. */}}
{{- define "agent-manager.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "agent-manager.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
Every namespace agents may live in: kagent.namespace, then
kagent.additionalNamespaces, without duplicates, as a JSON list (read it back
with fromJsonArray).
*/}}
{{- define "agent-manager.managedNamespaces" -}}
{{- prepend .Values.kagent.additionalNamespaces .Values.kagent.namespace | uniq | toJson -}}
{{- end -}}

{{/* The parent chart's identity contract, global.identity, as JSON ({} when absent). */}}
{{- define "agent-manager.globalIdentity" -}}
{{- dig "identity" (dict) (.Values.global | default dict) | toJson -}}
{{- end -}}

{{/*
"true" when the ServiceAccount gets Roles. Never with downstream OAuth: every
Kubernetes call then carries the caller's token, and the ServiceAccount must not
be a fallback with permissions of its own.
*/}}
{{- define "agent-manager.rbacEnabled" -}}
{{- if and .Values.rbac.create (not .Values.oauth.downstream.enabled) -}}true{{- end -}}
{{- end -}}

{{/*
The existing Secret the Google client ID is read from when oauth.google.clientID is
empty: oauth.existingSecret, else global.identity.existingSecret; fails when neither is set.
*/}}
{{- define "agent-manager.oauthSecretName" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- .Values.oauth.existingSecret | default (dig "existingSecret" "" $identity) | required "oauth.google.clientID is required for the google provider: set it, or name an existing Secret with the key google-client-id in oauth.existingSecret (or global.identity.existingSecret)" -}}
{{- end -}}

{{/* OAuth base URL: oauth.baseURL, else https://<fullname>.<global.domain>; fails when neither is set. */}}
{{- define "agent-manager.oauthBaseURL" -}}
{{- $domain := dig "domain" "" (.Values.global | default dict) -}}
{{- if .Values.oauth.baseURL -}}
{{- .Values.oauth.baseURL -}}
{{- else if $domain -}}
{{- printf "https://%s.%s" (include "agent-manager.fullname" .) $domain -}}
{{- else -}}
{{- fail "oauth.baseURL is required with oauth.enabled: set it to this server's public https URL, or set global.domain to derive https://<fullname>.<global.domain>" -}}
{{- end -}}
{{- end -}}

{{/* Dex issuer URL: oauth.dex.issuerURL, else global.identity.issuerUrl. */}}
{{- define "agent-manager.dexIssuerURL" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- .Values.oauth.dex.issuerURL | default (dig "issuerUrl" "" $identity) | required "oauth.dex.issuerURL is required for the dex provider: set it, or global.identity.issuerUrl" -}}
{{- end -}}

{{/* Dex client ID: oauth.dex.clientID, else global.identity.clientId. */}}
{{- define "agent-manager.dexClientID" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- .Values.oauth.dex.clientID | default (dig "clientId" "" $identity) | required "oauth.dex.clientID is required for the dex provider: set it, or global.identity.clientId" -}}
{{- end -}}

{{/* Secret with the CA of a private-certificate Dex: oauth.dex.caSecret.name, else global.identity.ca.secretName; empty for none. */}}
{{- define "agent-manager.dexCASecretName" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- if and .Values.oauth.enabled (eq .Values.oauth.provider "dex") -}}
{{- .Values.oauth.dex.caSecret.name | default (dig "ca" "secretName" "" $identity) -}}
{{- end -}}
{{- end -}}

{{/* Key of the PEM bundle in that Secret. */}}
{{- define "agent-manager.dexCASecretKey" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- if .Values.oauth.dex.caSecret.name -}}
{{- .Values.oauth.dex.caSecret.key | default "ca.crt" -}}
{{- else -}}
{{- dig "ca" "key" "" $identity | default .Values.oauth.dex.caSecret.key | default "ca.crt" -}}
{{- end -}}
{{- end -}}

{{/*
Trusted audiences, comma-separated: oauth.trustedAudiences (else the platform
client, global.identity.clientId), then muster.mcpServer.auth.requiredAudiences,
without duplicates and in that order. Every token muster forwards carries the
required audiences, and they are what the kube-apiserver trusts, so a portal
session (whose id_token names the portal's own client beside them) is accepted
without listing the portal's client here.
*/}}
{{- define "agent-manager.trustedAudiences" -}}
{{- $identity := include "agent-manager.globalIdentity" . | fromJson -}}
{{- $own := .Values.oauth.trustedAudiences | default (compact (list (dig "clientId" "" $identity))) -}}
{{- concat $own .Values.muster.mcpServer.auth.requiredAudiences | uniq | join "," -}}
{{- end -}}

{{/*
A probe of the container from its values: nothing when `enabled` is false, else the probe as
Kubernetes takes it (every key but `enabled`), under the name given. Called with
(list "livenessProbe" .Values.livenessProbe).
*/}}
{{- define "agent-manager.probe" -}}
{{- $name := index . 0 -}}{{- $probe := index . 1 -}}
{{- if $probe.enabled -}}
{{ $name }}:
  {{- omit $probe "enabled" | toYaml | nindent 2 }}
{{- end -}}
{{- end -}}
