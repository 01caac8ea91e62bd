resource "rootly_webhooks_endpoint" "probe" {
  name        = "tf-probe endpoint ${var.rev}"
  url         = "https://example.com/hooks/${var.rev}"
  enabled     = true
  event_types = var.rev == 1 ? ["incident.created"] : ["incident.created", "incident.resolved"]
}

resource "rootly_secret" "probe" {
  name   = "tf_probe_secret"
  secret = "s3cret-${var.rev}"
}
