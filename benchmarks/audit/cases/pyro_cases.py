"""Pyro: distributions, normalising flows and ELBO losses."""
import torch

from . import case


@case("asymmetric_laplace_log_prob")
def _():
    import pyro.distributions as dist

    d = dist.AsymmetricLaplace(torch.zeros(4), torch.ones(4), torch.ones(4) * 2.0)
    return d.log_prob, (torch.randn(4),), {}


@case("student_t_log_prob")
def _():
    import pyro.distributions as dist

    d = dist.MultivariateStudentT(torch.tensor(4.0), torch.zeros(3), torch.eye(3))
    return d.log_prob, (torch.randn(5, 3),), {}


@case("spline_transform")
def _():
    import pyro.distributions.transforms as T

    return T.Spline(2)._call, (torch.randn(8, 2),), {}


@case("zero_inflated_poisson_log_prob")
def _():
    import pyro.distributions as dist

    d = dist.ZeroInflatedPoisson(torch.ones(3) * 2.0, gate=torch.full((3,), 0.2))
    return d.log_prob, (torch.tensor([0.0, 1.0, 3.0]),), {}


def _model(data):
    import pyro
    import pyro.distributions as dist

    loc = pyro.sample("loc", dist.Normal(0.0, 1.0))
    with pyro.plate("data", data.shape[0]):
        pyro.sample("obs", dist.Normal(loc, 1.0), obs=data)


def _guide(data):
    import pyro
    import pyro.distributions as dist

    q = pyro.param("q_loc", torch.tensor(0.0))
    pyro.sample("loc", dist.Normal(q, 1.0))


@case("trace_elbo", grad=True)
def _():
    import pyro
    from pyro.infer import Trace_ELBO

    pyro.clear_param_store()
    return Trace_ELBO().differentiable_loss, (_model, _guide, torch.randn(6)), {}


@case("gamma_poisson_sample")
def _():
    import pyro.distributions as dist

    d = dist.GammaPoisson(torch.ones(3) * 2.0, torch.ones(3))
    return d.log_prob, (torch.tensor([0.0, 1.0, 3.0]),), {}
